/**
 * Backfill executors that fill a new materialized view from existing tables while they keep
 * changing: arrangement backfill (snapshot read merged with the live upstream), no-shuffle
 * backfill, snapshot backfill with log-store consumption, their per-vnode state tables and rate
 * limiting. Every backfill actor reports progress through {@code barrier.progress} before it yields
 * each barrier.
 *
 * <p>Empty until the backfill issue lands; see this module's README for the planned layout.
 */
package dev.tideway.backfill;

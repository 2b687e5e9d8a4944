/**
 * Backfill executors that fill a new materialized view from existing tables while they keep
 * changing, and report progress on every barrier. Entry point: {@link
 * dev.tideway.backfill.Backfills#create}, one call per {@code StreamScan}. Kinds: {@code
 * arrangement} (default: committed snapshot plus a replica of uncommitted upstream changes), {@code
 * noshuffle} (co-located: reads the node's shared buffer) and {@code snapshot} (a fixed snapshot
 * epoch, then the upstream change log via {@code logstore}). Shared parts live in {@code core},
 * {@code merge}, {@code state}, {@code upstream} and {@code ratelimit}.
 *
 * <p>Invariants: every kind reports through {@code CreateMviewProgressReporter} before it yields
 * each barrier, with cumulative row counts restored from its persisted state after recovery, and
 * reports {@code finish} in the epoch that persists {@code finished = true}.
 */
package dev.tideway.backfill;

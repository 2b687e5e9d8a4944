/**
 * Arrangement backfill: {@link dev.tideway.backfill.arrangement.ArrangementBackfillExecutor} reads
 * the committed upstream table merged with an in-memory replica of the uncommitted upstream changes
 * ({@code UpstreamReplica}), so it can read "at barrier.prev" on any node.
 */
package dev.tideway.backfill.arrangement;

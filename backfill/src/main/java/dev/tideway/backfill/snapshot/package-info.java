/**
 * Snapshot backfill: {@link dev.tideway.backfill.snapshot.SnapshotBackfillExecutor} reads one fixed
 * snapshot epoch, then consumes the upstream change log until it caught up, as the explicit state
 * machine {@code SnapshotPhase}.
 */
package dev.tideway.backfill.snapshot;

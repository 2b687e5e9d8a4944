package dev.tideway.backfill.snapshot;

/**
 * Where a snapshot backfill actor is. Moves forward only: {@link WaitingForSnapshot} → {@link
 * ConsumingSnapshot} → {@link ConsumingLogStore} → {@link Following}.
 */
sealed interface SnapshotPhase {
  /** The snapshot epoch is not committed yet; upstream epochs are only recorded. */
  record WaitingForSnapshot(long snapshotEpoch) implements SnapshotPhase {}

  /** Reading the upstream table at {@code snapshotEpoch} in (vnode, pk) order. */
  record ConsumingSnapshot(long snapshotEpoch) implements SnapshotPhase {}

  /** The snapshot is emitted; emitting upstream epochs after {@code consumedEpoch}. */
  record ConsumingLogStore(long consumedEpoch) implements SnapshotPhase {}

  /** Caught up: the upstream passes through. */
  record Following() implements SnapshotPhase {}
}

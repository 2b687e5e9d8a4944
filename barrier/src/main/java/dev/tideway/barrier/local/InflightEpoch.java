package dev.tideway.barrier.local;

import dev.tideway.barrier.control.SyncResult;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.BitSet;

/**
 * One epoch in flight on a node: which actor slots must collect it, which did, its progress side
 * data, and where it stands: COLLECTING → (checkpoint) SYNCING → READY, or COLLECTING → READY.
 *
 * <p>Owned by the {@link LocalBarrierManager}'s thread.
 */
final class InflightEpoch<S> {
  enum Status {
    COLLECTING,
    SYNCING,
    READY
  }

  final Barrier barrier;
  final int[] tablesToSync;
  final BitSet toCollect;
  final BitSet collected;
  final ProgressBatch progress;
  int remaining;
  Status status = Status.COLLECTING;
  SyncResult<S> syncResult;

  InflightEpoch(Barrier barrier, int[] tablesToSync, int slots, int progressCapacity) {
    this.barrier = barrier;
    this.tablesToSync = tablesToSync;
    this.toCollect = new BitSet(slots);
    this.collected = new BitSet(slots);
    this.progress = new ProgressBatch(progressCapacity);
  }

  boolean expects(int slot) {
    return toCollect.get(slot) && !collected.get(slot);
  }

  @Override
  public String toString() {
    return barrier.epoch() + " " + status + " remaining=" + remaining;
  }
}

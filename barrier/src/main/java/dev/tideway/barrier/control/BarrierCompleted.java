package dev.tideway.barrier.control;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.List;

/**
 * One node → meta: every actor of the node collected {@code epoch}; for a checkpoint the node
 * synced and these are its SSTs and stats; {@code progress} holds the backfill reports made in this
 * epoch.
 *
 * @param <S> the storage engine's SST info type (opaque here)
 */
public record BarrierCompleted<S>(
    int nodeId,
    long generation,
    EpochPair epoch,
    BarrierKind kind,
    List<S> syncedSsts,
    List<TableStatsDelta> statsDeltas,
    ProgressBatch progress) {

  @Override
  public String toString() {
    return "BarrierCompleted{node="
        + nodeId
        + ", gen="
        + generation
        + ", "
        + epoch
        + " "
        + kind
        + ", ssts="
        + syncedSsts.size()
        + ", progress="
        + progress.size()
        + "}";
  }
}

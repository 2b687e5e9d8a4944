package dev.tideway.barrier.global;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.List;

/**
 * What the global barrier core decided, in the order the meta shell must carry it out.
 *
 * @param <S> the storage engine's SST info type (opaque here)
 */
public sealed interface BarrierDecision<S>
    permits BarrierDecision.Inject,
        BarrierDecision.Collected,
        BarrierDecision.CommitEpoch,
        BarrierDecision.StartRecovery {

  /** Send each request to its node. */
  record Inject<S>(Barrier barrier, long generation, List<InjectBarrier> requests)
      implements BarrierDecision<S> {}

  /**
   * A non-checkpoint (or INITIAL) barrier was collected by every node: nothing to commit; its
   * progress waits for the next checkpoint. Release "collected" waiters.
   */
  record Collected<S>(EpochPair epoch, BarrierKind kind) implements BarrierDecision<S> {}

  /**
   * A checkpoint was collected by every node: commit storage epochs {@code committedEpochs} (the
   * non-checkpoint prevs since the last checkpoint, then this barrier's prev) with these SSTs and
   * stats <b>first</b>; then apply {@code progress} to the tracker with the new version's stats;
   * then mark finished jobs created; then release waiters of {@code commandIds}.
   *
   * @param progress reports of every epoch since the last checkpoint, oldest first
   * @param mutations mutations of those epochs, oldest first (now durable)
   */
  record CommitEpoch<S>(
      EpochPair epoch,
      List<Long> committedEpochs,
      List<S> ssts,
      List<TableStatsDelta> statsDeltas,
      List<ProgressBatch> progress,
      List<Mutation> mutations,
      List<Long> commandIds)
      implements BarrierDecision<S> {

    /** The storage epoch this commit makes the max committed one: the barrier's prev. */
    public long committedEpoch() {
      return epoch.prev();
    }
  }

  /**
   * Stop every actor, drop uncommitted state on every node, rebuild from the persisted graph, then
   * call {@code GlobalBarrierCore.recovered}. The commands of lost epochs failed.
   */
  record StartRecovery<S>(
      String reason, long committedEpoch, long generation, List<Long> failedCommandIds)
      implements BarrierDecision<S> {}
}

package dev.tideway.compute.actor;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.progress.ProgressSink;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.StateStore;
import java.util.BitSet;
import java.util.List;

/**
 * What an {@link ExecutorBuilder} may know about the actor it builds for. Grows as the runtime does
 * (the state store handle joins once storage is wired in).
 *
 * @param actorId the actor
 * @param fragmentId the fragment the actor is an instance of
 * @param vnodes the vnodes this actor owns (a copy; 256 bits); all for a singleton
 * @param barrierInbox where the node injects barriers; sources and other root executors poll it
 * @param splits the source splits this actor owns (empty for non-source actors)
 * @param clock the node's clock
 * @param stateStore the node's state store, for executors' state tables; null when the node runs
 *     without storage (exchange and runtime tests)
 * @param progressSink where backfill executors' {@code CreateMviewProgressReporter}s report
 *     (thread-safe: it forwards to the node's barrier manager as messages, in order with the
 *     actor's barrier reports, so progress made before yielding a barrier travels with its epoch)
 */
public record ExecutorBuildContext(
    int actorId,
    int fragmentId,
    BitSet vnodes,
    BarrierInbox barrierInbox,
    List<String> splits,
    Clock clock,
    StateStore stateStore,
    ProgressSink progressSink) {
  public ExecutorBuildContext {
    Checks.checkNotNull(barrierInbox, "barrier inbox of actor " + actorId);
    Checks.checkNotNull(clock, "clock");
    Checks.checkNotNull(progressSink, "progress sink of actor " + actorId);
    vnodes = (BitSet) vnodes.clone();
    splits = List.copyOf(splits);
  }

  @Override
  public BitSet vnodes() {
    return (BitSet) vnodes.clone();
  }

  /** The {@link ExecutorInfo} for {@code node} in this actor. */
  public ExecutorInfo infoOf(StreamPlanNode node) {
    return new ExecutorInfo(actorId, node.operatorId(), node.node().kindName());
  }
}

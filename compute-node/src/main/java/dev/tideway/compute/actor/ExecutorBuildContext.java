package dev.tideway.compute.actor;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.progress.ProgressSink;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.executor.ConnectorStats;
import dev.tideway.compute.executor.DmlChannels;
import dev.tideway.compute.expr.ExprErrorSink;
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
 * @param plan the actor's whole fragment plan (a builder may look at the nodes around the one it
 *     builds, as the {@code Dml} builder finds its table's {@code Materialize}); null when built
 *     outside a node (tests, benchmarks)
 * @param dmlChannels the node's DML channel registry, where a {@code Dml} builder registers the
 *     channel the node writes the table's rows into
 * @param inputBell the doorbell every {@code Merge} leaf of the actor rings when it polls instead
 *     of blocking, and that a multi-input executor (a join) waits on when no input has a message;
 *     null when merges block ({@link #inputBellFor})
 * @param stateCaches the in-memory bounds of stateful executors' caches (the node's config)
 * @param exprErrors where the actor's expressions report the rows whose value failed to evaluate
 *     and became NULL ({@link ExprErrorSink#STRICT} fails the actor instead)
 * @param connectorStats where connector sources report skipped records and lag
 * @param hasReaders whether the actor sends to any other actor when built (a shared source's job
 *     with no view over it sends to none; its source then reads nothing until a view is added)
 */
public record ExecutorBuildContext(
    int actorId,
    int fragmentId,
    BitSet vnodes,
    BarrierInbox barrierInbox,
    List<String> splits,
    Clock clock,
    StateStore stateStore,
    ProgressSink progressSink,
    StreamPlanNode plan,
    DmlChannels dmlChannels,
    Doorbell inputBell,
    StateCaches stateCaches,
    ExprErrorSink exprErrors,
    ConnectorStats connectorStats,
    boolean hasReaders) {
  public ExecutorBuildContext {
    Checks.checkNotNull(barrierInbox, "barrier inbox of actor " + actorId);
    Checks.checkNotNull(dmlChannels, "dml channels of actor " + actorId);
    Checks.checkNotNull(clock, "clock");
    Checks.checkNotNull(progressSink, "progress sink of actor " + actorId);
    Checks.checkNotNull(stateCaches, "state cache bounds of actor " + actorId);
    Checks.checkNotNull(exprErrors, "expression error sink of actor " + actorId);
    Checks.checkNotNull(connectorStats, "source stats of actor " + actorId);
    vnodes = (BitSet) vnodes.clone();
    splits = List.copyOf(splits);
  }

  /** A context without the fragment plan and with a private DML registry (tests, benchmarks). */
  public ExecutorBuildContext(
      int actorId,
      int fragmentId,
      BitSet vnodes,
      BarrierInbox barrierInbox,
      List<String> splits,
      Clock clock,
      StateStore stateStore,
      ProgressSink progressSink) {
    this(
        actorId,
        fragmentId,
        vnodes,
        barrierInbox,
        splits,
        clock,
        stateStore,
        progressSink,
        null,
        new DmlChannels(),
        null,
        StateCaches.DEFAULT,
        ExprErrorSink.STRICT,
        ConnectorStats.NONE,
        true);
  }

  /**
   * A shared doorbell for an actor whose plan has two or more {@code Merge} leaves, else null. Two
   * inputs of one join may be fed by one upstream actor (a self-join, or a table joined with an
   * aggregate of itself): a join blocked on one empty merge would let the other's channel fill and
   * block that upstream before it sends what the first merge waits for, a deadlock. With the shared
   * doorbell the merges poll and the join waits for any of them.
   */
  public static Doorbell inputBellFor(StreamPlanNode plan) {
    return plan != null && mergeLeaves(plan) >= 2 ? new Doorbell() : null;
  }

  private static int mergeLeaves(StreamPlanNode n) {
    int count = n.node() instanceof StreamNode.Merge ? 1 : 0;
    for (StreamPlanNode in : n.inputs()) {
      count += mergeLeaves(in);
    }
    return count;
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

package dev.tideway.compute.executor.build;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.actor.StateCaches;
import dev.tideway.compute.executor.HashAggExecutor;
import dev.tideway.compute.executor.HashJoinExecutor;
import dev.tideway.compute.executor.MaterializeExecutor;
import dev.tideway.compute.executor.PaneHopAggExecutor;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTables;
import java.util.List;
import java.util.Set;

/**
 * Builds the operators that keep state: {@code HashAgg}, {@code HashJoin} and {@code Materialize},
 * their tables opened on the context's state store ({@link StateTables} encodings). HashAgg's group
 * cache holds {@link StateCaches#aggGroups} groups, each HashJoin side's key cache {@link
 * StateCaches#joinUnits} keys plus rows (the context's bounds, from the node's config); both trim
 * their caches at barriers only. Stateless and thread-safe.
 */
public final class StatefulBuilder implements ExecutorBuilder {

  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(
        StreamNode.HashAgg.class,
        StreamNode.HashJoin.class,
        StreamNode.Materialize.class,
        StreamNode.PaneHopAgg.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    StateStore store = ctx.stateStore();
    Checks.checkState(
        store != null,
        "actor %s operator %s (%s) needs a state store",
        ctx.actorId(),
        node.operatorId(),
        node.node().kindName());
    var info = ctx.infoOf(node);
    StreamNode body = node.node();
    if (body instanceof StreamNode.HashAgg a) {
      return new HashAggExecutor(info, inputs.get(0), a, store, ctx.stateCaches().aggGroups());
    }
    if (body instanceof StreamNode.HashJoin j) {
      return new HashJoinExecutor(
          info,
          inputs.get(0),
          inputs.get(1),
          j,
          store,
          ctx.stateCaches().joinUnits(),
          HashJoinExecutor.DEFAULT_FILTER_BITS,
          ctx.exprErrors());
    }
    if (body instanceof StreamNode.PaneHopAgg p) {
      return new PaneHopAggExecutor(
          info,
          inputs.get(0),
          p,
          store,
          ctx.stateCaches().aggGroups(),
          HashAggExecutor.DEFAULT_FILTER_BITS,
          PaneHopAggExecutor.DEFAULT_MAX_DIRTY_GROUPS);
    }
    if (body instanceof StreamNode.Materialize m) {
      return new MaterializeExecutor(info, inputs.get(0), StateTables.open(store, m.table()));
    }
    throw new IllegalArgumentException(
        "StatefulBuilder cannot build "
            + body.kindName()
            + " (operator "
            + node.operatorId()
            + ")");
  }
}

package dev.tideway.compute.executor.build;

import dev.tideway.backfill.Backfills;
import dev.tideway.backfill.core.BackfillOptions;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import java.util.List;
import java.util.Set;

/**
 * Builds {@code StreamScan} bodies: the backfill executor of the backfill module over the actor's
 * merge of the upstream table's actors (the node's actor factory passes that merge as the only
 * input), reporting progress on the actor's progress sink.
 */
public final class BackfillBuilder implements ExecutorBuilder {
  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(StreamNode.StreamScan.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    StreamNode.StreamScan scan = (StreamNode.StreamScan) node.node();
    Checks.checkArgument(
        inputs.size() == 1,
        "actor %s: StreamScan of table %s needs its upstream merge as the one input, got %s",
        ctx.actorId(),
        scan.upstreamTableId(),
        inputs.size());
    Checks.checkArgument(
        scan.upstreamTable() != null,
        "actor %s: StreamScan of table %s carries no upstream table layout",
        ctx.actorId(),
        scan.upstreamTableId());
    Checks.checkState(
        ctx.stateStore() != null, "actor %s: a backfill needs a state store", ctx.actorId());
    return Backfills.create(
        new Backfills.Args(
            scan,
            scan.upstreamTable(),
            inputs.get(0),
            ctx.stateStore(),
            ctx.vnodes(),
            ctx.infoOf(node),
            new CreateMviewProgressReporter(ctx.actorId(), ctx.progressSink()),
            ctx.clock(),
            scan.rateLimit() == StreamNode.StreamScan.UNLIMITED
                ? BackfillOptions.DEFAULT
                : BackfillOptions.DEFAULT.withRate(scan.rateLimit())));
  }
}

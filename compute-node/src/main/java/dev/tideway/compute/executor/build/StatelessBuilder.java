package dev.tideway.compute.executor.build;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.executor.FilterExecutor;
import dev.tideway.compute.executor.HopWindowExecutor;
import dev.tideway.compute.executor.LocalAggExecutor;
import dev.tideway.compute.executor.ProjectExecutor;
import dev.tideway.compute.executor.TumbleWindowExecutor;
import java.util.List;
import java.util.Set;

/**
 * Builds the stateless unary operators: {@code Project}, {@code Filter}, {@code TumbleWindow},
 * {@code HopWindow} and {@code LocalAgg} (whose partials live until the next flush only). Stateless
 * and thread-safe.
 */
public final class StatelessBuilder implements ExecutorBuilder {
  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(
        StreamNode.Project.class,
        StreamNode.Filter.class,
        StreamNode.TumbleWindow.class,
        StreamNode.HopWindow.class,
        StreamNode.LocalAgg.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    Executor in = inputs.get(0);
    var info = ctx.infoOf(node);
    StreamNode body = node.node();
    if (body instanceof StreamNode.Project p) {
      return new ProjectExecutor(info, in, p.exprs(), node.outputSchema(), ctx.exprErrors());
    }
    if (body instanceof StreamNode.Filter f) {
      return new FilterExecutor(info, in, f.predicate(), ctx.exprErrors());
    }
    if (body instanceof StreamNode.TumbleWindow t) {
      return new TumbleWindowExecutor(info, in, t.timeColumn(), t.size());
    }
    if (body instanceof StreamNode.HopWindow h) {
      return new HopWindowExecutor(info, in, h.timeColumn(), h.slide(), h.size());
    }
    if (body instanceof StreamNode.LocalAgg a) {
      return new LocalAggExecutor(info, in, a);
    }
    throw new IllegalArgumentException(
        "StatelessBuilder cannot build "
            + body.kindName()
            + " (operator "
            + node.operatorId()
            + ")");
  }
}

package dev.tideway.compute.executor.build;

import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilders;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a whole single-fragment operator tree through {@link ExecutorBuilders}, bottom-up, every
 * executor wrapped in {@link CheckedExecutor} (as the node's actor factory does). For in-process
 * runs (benchmarks, tests); a tree with a {@code Merge} needs a builder for it among {@code
 * builders} (the node builds merges from its exchange instead).
 *
 * <p>Stateless.
 */
public final class ExecutorChains {
  private ExecutorChains() {}

  /** The checked root executor of {@code root}'s tree. */
  public static Executor build(
      ExecutorBuilders builders, ExecutorBuildContext ctx, StreamPlanNode root) {
    List<Executor> inputs = new ArrayList<>();
    for (StreamPlanNode in : root.inputs()) {
      inputs.add(build(builders, ctx, in));
    }
    return CheckedExecutor.wrap(builders.forKind(root.node().getClass()).build(ctx, root, inputs));
  }
}

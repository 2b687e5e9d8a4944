package dev.tideway.compute.actor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import java.util.List;
import java.util.Set;

/**
 * The SPI through which operator implementations plug into the actor runtime: turns one plan
 * operator into an executor. Implementations are found with {@link java.util.ServiceLoader} (list
 * them in {@code META-INF/services/dev.tideway.compute.actor.ExecutorBuilder}) or registered
 * explicitly in {@link ExecutorBuilders}; each declares the {@link StreamNode} body classes it
 * builds, and a body class may have only one builder.
 *
 * <p>The runtime builds the chain bottom-up: the {@code inputs} passed here are already built and
 * already wrapped in {@link dev.tideway.barrier.executor.CheckedExecutor}, and the executor
 * returned is wrapped too. {@code Merge} bodies are built by the runtime (they read exchange
 * channels) and never reach a builder.
 *
 * <p>Called on the node's build thread; the executor returned is then confined to the actor thread.
 */
public interface ExecutorBuilder {
  /** The body classes this builder handles, e.g. {@code Set.of(StreamNode.Project.class)}. */
  Set<Class<? extends StreamNode>> nodeKinds();

  /**
   * Builds the executor for {@code node}.
   *
   * @param ctx the actor being built: ids, vnodes, barrier inbox, clock
   * @param node the operator (its body is one of {@link #nodeKinds()})
   * @param inputs the built inputs, in the order of {@code node.inputs()}
   */
  Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs);
}

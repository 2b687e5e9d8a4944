package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.InjectBarrier;

/**
 * The compute nodes as the barrier loop sees them. Production sends Pekko messages to each node's
 * barrier control endpoint; tests answer in-process. Answers ({@code BarrierCompleted}, failures)
 * come back through {@link GlobalBarrierManager#onCompleted} and {@link
 * GlobalBarrierManager#onNodeFailure}, from any thread.
 *
 * <p>Implementations must not block: they are called on the barrier loop's thread.
 */
public interface ComputeClient {
  /** Sends {@code request} to node {@code request.nodeId()}. */
  void inject(InjectBarrier request);

  /**
   * Recovery: every node stops its actors, drops state above {@code committedEpoch}, rebuilds the
   * actors of the persisted fragment graphs and stamps further answers with {@code generation}.
   * Returns when every node acknowledged.
   */
  void reset(long generation, long committedEpoch);
}

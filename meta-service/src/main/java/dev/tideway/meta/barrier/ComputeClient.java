package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The whole meta → compute port: everything the leader asks of compute nodes. Production sends
 * Pekko messages to each node's control endpoint; tests answer in-process. Barrier answers ({@code
 * BarrierCompleted}, failures) come back through {@link GlobalBarrierManager#onCompleted} and
 * {@link GlobalBarrierManager#onNodeFailure}, from any thread.
 *
 * <p>Nodes are named by their address ({@link FragmentGraph.Actor#node()}); in barrier requests by
 * the id {@link Topologies#nodeIds} gives that address.
 *
 * <p>Implementations must not block in {@link #inject}, {@link #build}, {@link #drop} or {@link
 * #compact}: they are called on the barrier loop's thread. Futures may complete on any thread.
 */
public interface ComputeClient {
  /** Sends {@code request} to node {@code request.nodeId()}. */
  void inject(InjectBarrier request);

  /**
   * Builds (but does not start) every actor of a new job on its node, before the job's {@code Add}
   * barrier is injected; the actors start on that barrier. Cross-job edges (MV on MV, MV on table)
   * make existing upstream actors gain outputs: {@link ActorWiring#of} names them, with the node of
   * every actor involved. Completes when every involved node acknowledged; fails if any node
   * refused or is unreachable (the leader then fails the DDL job and calls {@link #drop}).
   *
   * @param catalog the state that holds {@code graph}: plan bodies, upstream jobs' actors
   */
  CompletableFuture<Void> build(FragmentGraph graph, CatalogState catalog);

  /**
   * Recovery: every node stops all its actors, drops state above {@code committedEpoch}, then
   * builds every actor of every graph in {@code catalog} (with their wiring) and stamps further
   * answers with {@code generation}. The INITIAL barrier of {@code generation} that follows starts
   * all of them (it carries no {@code Add}: the actors a reset built are the ones it starts).
   * Returns when every node acknowledged; throws if one did not (the leader retries with backoff).
   */
  void reset(long generation, long committedEpoch, CatalogState catalog);

  /** Stops and forgets these actors at once, without a barrier (a failed build, cleanup). */
  void drop(Set<Integer> actorIds);

  /**
   * Runs a compaction rewrite on node {@code node} ({@code StateStore.compact} of its storage);
   * completes with the outcome for the leader to apply, or fails (the task is dropped; its outputs
   * are vacuumed after the grace period).
   */
  CompletableFuture<CompactionOutcome> compact(String node, CompactionJob job);

  /**
   * Node {@code node}'s expression error counts since it started, by job, fragment and kind (the
   * answer to the {@code GetExpressionErrors} request {@code rw_expression_errors} also uses); an
   * unreachable node fails the future. None by default (clients without a cluster).
   */
  default CompletableFuture<List<ExpressionErrorCount>> expressionErrors(String node) {
    return CompletableFuture.completedFuture(List.of());
  }
}

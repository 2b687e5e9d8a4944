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
import java.util.function.Supplier;

/**
 * Connects to the compute nodes on first use, once the term's manager exists (the connector needs
 * it to route answers). Every call comes from the manager's owner thread or the version maintenance
 * thread; the connection is made under a lock once.
 */
final class LazyComputeClient<S> implements ComputeClient {
  private final BarrierRunner.ComputeConnector<S> connector;
  private final Supplier<GlobalBarrierManager<S>> manager;
  private ComputeClient delegate;

  LazyComputeClient(
      BarrierRunner.ComputeConnector<S> connector, Supplier<GlobalBarrierManager<S>> manager) {
    this.connector = connector;
    this.manager = manager;
  }

  private synchronized ComputeClient d() {
    if (delegate == null) {
      delegate = connector.connect(manager.get());
    }
    return delegate;
  }

  @Override
  public void inject(InjectBarrier request) {
    d().inject(request);
  }

  @Override
  public CompletableFuture<Void> build(FragmentGraph graph, CatalogState catalog) {
    return d().build(graph, catalog);
  }

  @Override
  public void reset(long generation, long committedEpoch, CatalogState catalog) {
    d().reset(generation, committedEpoch, catalog);
  }

  @Override
  public void drop(Set<Integer> actorIds) {
    d().drop(actorIds);
  }

  @Override
  public CompletableFuture<CompactionOutcome> compact(String node, CompactionJob job) {
    return d().compact(node, job);
  }

  @Override
  public CompletableFuture<List<ExpressionErrorCount>> expressionErrors(String node) {
    return d().expressionErrors(node);
  }
}

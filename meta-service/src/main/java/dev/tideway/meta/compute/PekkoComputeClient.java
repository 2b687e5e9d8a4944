package dev.tideway.meta.compute;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.meta.barrier.ComputeClient;
import dev.tideway.meta.barrier.Topologies;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ComputeBridge;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.SstInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Meta's port to the compute nodes, over the {@link ComputeBridge}: builds a job's actors from its
 * fragment graph ({@link ActorPlans}), injects barriers, resets and rebuilds the world for
 * recovery, drops actors. Completions and failures go to the term's barrier manager with meta's
 * node ids.
 *
 * <p>One per leader term. Thread-safe.
 */
public final class PekkoComputeClient implements ComputeClient {
  private static final Logger LOG = LoggerFactory.getLogger(PekkoComputeClient.class);
  private static final long RESET_TIMEOUT_S = 60;

  /** Where answers go: the term's barrier manager. */
  public interface Sink {
    void completed(BarrierCompleted<SstInfo> c);

    void failed(NodeFailure f);

    /** The compute node at {@code address} left the cluster or became unreachable. */
    void nodeLost(String address, String why);

    /** The address of the node a barrier request of this term names. */
    java.util.Optional<String> nodeAddress(int nodeId);
  }

  private final ComputeBridge bridge;
  private final PlanCodec codec;

  /** Address → the node id this term's barrier requests give it (learned from each inject). */
  private final Map<String, Integer> metaIdOf = new ConcurrentHashMap<>();

  /** Every node this client sent a command to (drop goes to all of them). */
  private final Set<String> known = ConcurrentHashMap.newKeySet();

  private final Sink sink;

  public PekkoComputeClient(ComputeBridge bridge, PlanCodec codec, Sink sink) {
    this.bridge = bridge;
    this.codec = codec;
    this.sink = sink;
    bridge.listen(
        new ComputeBridge.Listener() {
          @Override
          @SuppressWarnings("unchecked")
          public void completed(String node, BarrierCompleted<Object> c) {
            Integer id = metaIdOf.get(node);
            if (id == null) {
              LOG.warn("completion from {} which has no actors in the catalog: {}", node, c);
              return;
            }
            List<SstInfo> ssts = new ArrayList<>();
            c.syncedSsts().forEach(s -> ssts.add((SstInfo) s));
            c.progress().restampNodeReports(id); // the node wrote its own id
            sink.completed(
                new BarrierCompleted<>(
                    id, c.generation(), c.epoch(), c.kind(), ssts, c.statsDeltas(), c.progress()));
          }

          @Override
          public void failed(String node, NodeFailure f) {
            Integer id = metaIdOf.get(node);
            if (id == null) {
              LOG.warn("failure from {} before any barrier of this term: {}", node, f);
              return;
            }
            sink.failed(
                new NodeFailure(id, f.generation(), f.actorId(), f.reason(), f.failedEpochs()));
          }

          @Override
          public void nodeLost(String node, String why) {
            sink.nodeLost(node, why);
          }
        });
  }

  private void learn(CatalogState catalog) {
    known.addAll(Topologies.nodeIds(catalog).keySet());
  }

  @Override
  public void inject(InjectBarrier request) {
    String node = sink.nodeAddress(request.nodeId()).orElse(null);
    if (node == null) {
      LOG.warn("inject for unknown node id {} dropped: {}", request.nodeId(), request);
      return;
    }
    metaIdOf.put(node, request.nodeId());
    bridge.inject(node, request);
  }

  /** Builds job {@code graph}'s actors (and its upstreams' new outputs) on their nodes. */
  @Override
  public CompletableFuture<Void> build(FragmentGraph graph, CatalogState catalog) {
    learn(catalog);
    Map<String, ActorPlans.NodeBuild> plans = new ActorPlans(catalog, codec).job(graph.jobId());
    return buildAll(plans);
  }

  private CompletableFuture<Void> buildAll(Map<String, ActorPlans.NodeBuild> plans) {
    List<CompletableFuture<ComputeEvent>> acks = new ArrayList<>();
    for (ActorPlans.NodeBuild b : plans.values()) {
      acks.add(
          bridge.request(
              b.node(),
              id ->
                  new ComputeRequest.BuildActors(
                      id, b.actors(), b.actorNodes(), b.newOutputs(), bridge.replyTo())));
    }
    return allAcked(acks, "build actors");
  }

  /**
   * Recovery: every node of the catalog drops its actors and uncommitted state, then every actor of
   * every job is built again. Blocks until all nodes answered.
   */
  @Override
  public void reset(long generation, long committedEpoch, CatalogState catalog) {
    learn(catalog);
    Set<String> nodes = Topologies.nodeIds(catalog).keySet();
    List<CompletableFuture<ComputeEvent>> acks = new ArrayList<>();
    for (String node : nodes) {
      acks.add(
          bridge.request(
              node,
              id ->
                  new ComputeRequest.ResetForRecovery(
                      id, generation, committedEpoch, bridge.replyTo())));
    }
    join(allAcked(acks, "reset for recovery"));
    join(buildAll(new ActorPlans(catalog, codec).all()));
    LOG.info(
        "recovery generation {}: {} nodes reset to committed epoch {} and rebuilt",
        generation,
        nodes.size(),
        committedEpoch);
  }

  /** Stops these actors now, without a barrier, on every node this client knows. */
  @Override
  public void drop(Set<Integer> actorIds) {
    for (String node : known) {
      bridge.request(node, id -> new ComputeRequest.DropActors(id, actorIds, bridge.replyTo()));
    }
  }

  /**
   * Runs a compaction meta picked on {@code node} (its {@code Compact} command) and hands back the
   * outcome for meta to apply; a node that refuses or fails fails the future (meta drops the task).
   */
  @Override
  public CompletableFuture<CompactionOutcome> compact(String node, CompactionJob job) {
    return bridge
        .request(node, id -> new ComputeRequest.Compact(id, job, bridge.replyTo()))
        .thenApply(
            e -> {
              if (e instanceof ComputeEvent.Compacted c) {
                return c.outcome();
              }
              String why =
                  e instanceof ComputeEvent.CommandFailed f ? f.reason() : "unexpected answer " + e;
              throw new IllegalStateException(
                  "compaction of "
                      + job.inputCount()
                      + " SSTs into L"
                      + job.targetLevel()
                      + " on "
                      + node
                      + " failed: "
                      + why);
            });
  }

  /** Asks {@code node} for its expression error counts ({@code GetExpressionErrors}). */
  @Override
  public CompletableFuture<List<ExpressionErrorCount>> expressionErrors(String node) {
    return bridge
        .request(node, id -> new ComputeRequest.GetExpressionErrors(id, bridge.replyTo()))
        .thenApply(
            e -> {
              if (e instanceof ComputeEvent.ExpressionErrors r) {
                return r.counts();
              }
              throw new IllegalStateException(node + " did not report its expression errors: " + e);
            });
  }

  private static void join(CompletableFuture<Void> f) {
    try {
      f.get(RESET_TIMEOUT_S, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for compute nodes", e);
    } catch (Exception e) {
      throw new IllegalStateException("compute nodes did not recover: " + e.getMessage(), e);
    }
  }

  private static CompletableFuture<Void> allAcked(
      List<CompletableFuture<ComputeEvent>> acks, String what) {
    CompletableFuture<Void> all = new CompletableFuture<>();
    CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new))
        .whenComplete(
            (v, e) -> {
              if (e != null) {
                all.completeExceptionally(e);
                return;
              }
              for (CompletableFuture<ComputeEvent> a : acks) {
                ComputeEvent r = a.join();
                if (r instanceof ComputeEvent.CommandFailed f) {
                  all.completeExceptionally(
                      new IllegalStateException(
                          what + " failed on node " + f.nodeId() + ": " + f.reason()));
                  return;
                }
              }
              all.complete(null);
            });
    return all;
  }
}

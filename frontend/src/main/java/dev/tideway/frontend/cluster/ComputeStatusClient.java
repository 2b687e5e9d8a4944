package dev.tideway.frontend.cluster;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.meta.ComputeStatus;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.compute.ComputeBridge;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks every compute node that runs actors of the catalog's jobs for its counts, all at once, and
 * waits at most {@link #TIMEOUT_MS} for the answers: a node that is down or slow is left out (and
 * logged), it never blocks the query that reads {@code rw_catalog}.
 */
public final class ComputeStatusClient implements ComputeStatus {
  private static final Logger LOG = LoggerFactory.getLogger(ComputeStatusClient.class);
  static final long TIMEOUT_MS = 3_000;

  private final ComputeBridge bridge;
  private final MetaAccess meta;
  private final Clock clock;

  public ComputeStatusClient(ComputeBridge bridge, MetaAccess meta, Clock clock) {
    this.bridge = bridge;
    this.meta = meta;
    this.clock = clock;
  }

  @Override
  public List<ExpressionErrorCount> expressionErrors() {
    CatalogState state = meta.catalog().orElse(null);
    if (state == null) {
      return List.of();
    }
    TreeSet<String> nodes = new TreeSet<>();
    for (FragmentGraph g : state.fragments().values()) {
      g.actors().forEach(a -> nodes.add(a.node()));
    }
    Map<String, CompletableFuture<ComputeEvent>> asked = new TreeMap<>();
    for (String node : nodes) {
      asked.put(
          node,
          bridge.request(node, id -> new ComputeRequest.GetExpressionErrors(id, bridge.replyTo())));
    }
    long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
    List<ExpressionErrorCount> out = new ArrayList<>();
    for (Map.Entry<String, CompletableFuture<ComputeEvent>> e : asked.entrySet()) {
      try {
        long left = Math.max(0, deadline - clock.nanoTime());
        if (e.getValue().get(left, TimeUnit.NANOSECONDS)
            instanceof ComputeEvent.ExpressionErrors r) {
          out.addAll(r.counts());
        }
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException | TimeoutException ex) {
        e.getValue().cancel(false);
        LOG.warn(
            "compute node {} did not report its expression errors: {}", e.getKey(), ex.toString());
      }
    }
    return out;
  }
}

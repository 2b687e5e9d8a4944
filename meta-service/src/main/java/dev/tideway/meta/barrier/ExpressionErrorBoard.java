package dev.tideway.meta.barrier;

import dev.tideway.common.time.Clock;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The expression errors of the streaming jobs (values set to NULL because evaluating them failed),
 * summed over the compute nodes, for the job page. Collected on demand: a read answers the last
 * collection and, when it is older than {@link #REFRESH_MS}, asks every node that runs actors for
 * its counts ({@link ComputeClient#expressionErrors}, the request {@code rw_expression_errors}
 * uses), so nodes are asked only while someone looks, at most once per interval. The counts are not
 * numbers a barrier report can carry: each has the last error's message, which is text.
 *
 * <p>A node that does not answer keeps its previous counts; a node that no longer runs actors drops
 * out. One per leader term. Thread-safe: reads come from HTTP threads, answers complete on any
 * thread; the collected state is swapped whole.
 */
public final class ExpressionErrorBoard {
  private static final Logger LOG = LoggerFactory.getLogger(ExpressionErrorBoard.class);

  /** The least time between two collections. */
  static final long REFRESH_MS = 1_000;

  private final ComputeClient compute;
  private final Supplier<List<String>> nodes;
  private final Clock clock;
  private final AtomicBoolean asking = new AtomicBoolean();
  private volatile long askedAtMs = Long.MIN_VALUE / 2;
  private volatile Map<String, List<ExpressionErrorCount>> byNode = Map.of();
  private volatile List<ExpressionErrorCount> merged = List.of();

  public ExpressionErrorBoard(ComputeClient compute, Supplier<List<String>> nodes, Clock clock) {
    this.compute = compute;
    this.nodes = nodes;
    this.clock = clock;
  }

  /**
   * The counts of the last collection, one per job, fragment and kind (summed over the nodes; the
   * message and time of the latest error), sorted by job, fragment and kind.
   */
  public List<ExpressionErrorCount> latest() {
    long now = clock.currentTimeMillis();
    if (now - askedAtMs >= REFRESH_MS && asking.compareAndSet(false, true)) {
      askedAtMs = now;
      try {
        collect();
      } catch (RuntimeException e) {
        asking.set(false);
        LOG.debug("asking the compute nodes for their expression errors failed", e);
      }
    }
    return merged;
  }

  private void collect() {
    List<String> live = nodes.get();
    Map<String, CompletableFuture<List<ExpressionErrorCount>>> asked = new TreeMap<>();
    for (String node : live) {
      asked.put(node, compute.expressionErrors(node));
    }
    CompletableFuture.allOf(
            asked.values().stream()
                .map(f -> f.exceptionally(e -> null))
                .toArray(CompletableFuture[]::new))
        .whenComplete(
            (v, e) -> {
              Map<String, List<ExpressionErrorCount>> previous = byNode;
              Map<String, List<ExpressionErrorCount>> next = new HashMap<>();
              asked.forEach(
                  (node, f) -> {
                    List<ExpressionErrorCount> got = f.isCompletedExceptionally() ? null : f.join();
                    List<ExpressionErrorCount> kept = got != null ? got : previous.get(node);
                    if (kept != null) {
                      next.put(node, kept);
                    }
                  });
              byNode = Map.copyOf(next);
              merged = merge(next.values());
              asking.set(false);
            });
  }

  /** Sums counts of the same job, fragment and kind; the latest error's message wins. */
  static List<ExpressionErrorCount> merge(Iterable<List<ExpressionErrorCount>> perNode) {
    Map<List<Object>, ExpressionErrorCount> out = new HashMap<>();
    for (List<ExpressionErrorCount> counts : perNode) {
      for (ExpressionErrorCount c : counts) {
        out.merge(c.key(), c, ExpressionErrorCount::plus);
      }
    }
    List<ExpressionErrorCount> sorted = new ArrayList<>(out.values());
    sorted.sort(
        Comparator.comparingInt(ExpressionErrorCount::jobId)
            .thenComparingInt(ExpressionErrorCount::fragmentId)
            .thenComparing(ExpressionErrorCount::kind));
    return List.copyOf(sorted);
  }
}

package dev.tideway.compute.node;

import dev.tideway.common.time.Clock;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.expr.ExprException;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's record of the evaluation errors its streaming actors turned into NULLs: counted per
 * job, fragment and kind (in {@code tideway_stream_expression_errors_total} and for {@code
 * rw_catalog.rw_expression_errors}), with the latest message kept, and logged at most once per
 * {@link #LOG_INTERVAL_MS} per job, fragment and kind with the number suppressed since.
 *
 * <p>Thread-safe: every actor thread reports through its {@link #sinkFor} sink.
 */
public final class ExpressionErrors {
  private static final Logger LOG = LoggerFactory.getLogger(ExpressionErrors.class);

  /** The least time between two log lines about one job, fragment and kind. */
  static final long LOG_INTERVAL_MS = 10_000;

  private record Key(int jobId, int fragmentId, ExprException.Reason kind) {}

  /** Counts of one key; guarded by its own monitor. */
  private static final class Tally {
    long count;
    long unlogged;
    long lastLoggedAtMillis = Long.MIN_VALUE;
    String lastMessage = "";
    long lastAtMillis;
  }

  private final Clock clock;
  private final Counter counter;
  private final ConcurrentHashMap<Key, Tally> tallies = new ConcurrentHashMap<>();

  public ExpressionErrors(Clock clock, PrometheusRegistry registry) {
    this.clock = clock;
    this.counter =
        Counter.builder()
            .name("tideway_stream_expression_errors_total")
            .help(
                "Values of streaming jobs set to NULL because evaluating them failed (division by"
                    + " zero, overflow, a bad cast, a bad argument)")
            .labelNames("job", "fragment", "kind")
            .register(registry);
  }

  /** The sink of the actors of {@code fragmentId} in job {@code jobId}. */
  public ExprErrorSink sinkFor(int jobId, int fragmentId) {
    return e -> record(new Key(jobId, fragmentId, e.reason()), e);
  }

  private void record(Key key, ExprException e) {
    counter
        .labelValues(
            Integer.toString(key.jobId()), Integer.toString(key.fragmentId()), key.kind().name())
        .inc();
    Tally t = tallies.computeIfAbsent(key, k -> new Tally());
    long now = clock.currentTimeMillis();
    long suppressed;
    synchronized (t) {
      t.count++;
      t.lastMessage = e.getMessage();
      t.lastAtMillis = now;
      if (now - t.lastLoggedAtMillis < LOG_INTERVAL_MS && t.lastLoggedAtMillis != Long.MIN_VALUE) {
        t.unlogged++;
        return;
      }
      suppressed = t.unlogged;
      t.unlogged = 0;
      t.lastLoggedAtMillis = now;
    }
    LOG.warn(
        "job {} fragment {}: {} ({}); the value is NULL{}",
        key.jobId(),
        key.fragmentId(),
        e.getMessage(),
        key.kind(),
        suppressed == 0 ? "" : "; " + suppressed + " more such error(s) since the last report");
  }

  /** The counts since the node started, by job, fragment and kind. */
  public List<ExpressionErrorCount> counts() {
    List<ExpressionErrorCount> out = new ArrayList<>();
    tallies.forEach(
        (k, t) -> {
          synchronized (t) {
            out.add(
                new ExpressionErrorCount(
                    k.jobId(),
                    k.fragmentId(),
                    k.kind().name(),
                    t.count,
                    t.lastMessage,
                    t.lastAtMillis));
          }
        });
    out.sort(
        Comparator.comparingInt(ExpressionErrorCount::jobId)
            .thenComparingInt(ExpressionErrorCount::fragmentId)
            .thenComparing(ExpressionErrorCount::kind));
    return out;
  }
}

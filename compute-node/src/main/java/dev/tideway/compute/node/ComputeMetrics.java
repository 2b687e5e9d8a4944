package dev.tideway.compute.node;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.exchange.ExchangeRegistry;
import dev.tideway.compute.exchange.RemoteInput;
import dev.tideway.compute.exchange.RemoteOutput;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * The compute node's Prometheus metrics, in base units with the {@code tideway_compute_} prefix, in
 * a registry of their own (two nodes may share a JVM in tests and the playground). Served on {@code
 * /metrics} of the node's HTTP port ({@code tideway.compute.http-port}).
 *
 * <p>Thread-safe: counters and histograms are; the exchange gauges read the registry's concurrent
 * maps at scrape time. Rows are counted per chunk (one increment per chunk and executor edge), so
 * the cost does not grow with the rows.
 */
public final class ComputeMetrics {
  private final PrometheusRegistry registry;
  private final Gauge actorsRunning;
  private final Histogram barrierLatency;
  private final Histogram syncDuration;
  private final Counter rowsIn;
  private final Counter rowsOut;

  public ComputeMetrics(ExchangeRegistry exchange) {
    this(exchange, new PrometheusRegistry());
  }

  /**
   * Registers in {@code registry}, which the node's {@code /metrics} serves: the process registers
   * its state store's metrics there too.
   */
  public ComputeMetrics(ExchangeRegistry exchange, PrometheusRegistry registry) {
    this.registry = registry;
    actorsRunning =
        Gauge.builder()
            .name("tideway_compute_actors_running")
            .help("Actors built and running on this node")
            .register(registry);
    barrierLatency =
        Histogram.builder()
            .name("tideway_compute_barrier_latency_seconds")
            .help("From a barrier's inject on this node until every actor here collected it")
            .classicOnly()
            .classicUpperBounds(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
            .register(registry);
    syncDuration =
        Histogram.builder()
            .name("tideway_compute_sync_duration_seconds")
            .help("State store sync of a checkpoint epoch on this node")
            .classicOnly()
            .classicUpperBounds(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
            .register(registry);
    rowsIn =
        Counter.builder()
            .name("tideway_compute_executor_rows_in_total")
            .help("Rows (visible) that executors of this kind pulled from their inputs")
            .labelNames("kind")
            .register(registry);
    rowsOut =
        Counter.builder()
            .name("tideway_compute_executor_rows_out_total")
            .help("Rows (visible) that executors of this kind emitted")
            .labelNames("kind")
            .register(registry);
    registerExchangeGauges(exchange);
  }

  private void registerExchangeGauges(ExchangeRegistry exchange) {
    GaugeWithCallback.builder()
        .name("tideway_compute_exchange_outputs_waiting_credit")
        .help(
            "Remote output channels with no credit left (their producer blocks on the next frame)")
        .callback(
            cb ->
                cb.call(
                    exchange.remoteOutputs().stream()
                        .filter(o -> o.availableCredits() <= 0)
                        .count()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("tideway_compute_exchange_credits_available")
        .help("Frames the remote outputs of this node may still send without new credit")
        .callback(
            cb ->
                cb.call(
                    exchange.remoteOutputs().stream()
                        .mapToLong(RemoteOutput::availableCredits)
                        .sum()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("tideway_compute_exchange_input_frames_queued")
        .help("Frames received from other nodes and not yet consumed")
        .callback(
            cb ->
                cb.call(
                    exchange.remoteInputs().stream().mapToLong(RemoteInput::queuedFrames).sum()))
        .register(registry);
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  void actorsRunning(int n) {
    actorsRunning.set(n);
  }

  void barrierCollected(long nanos) {
    barrierLatency.observe(nanos / 1e9);
  }

  void syncFinished(long nanos) {
    syncDuration.observe(nanos / 1e9);
  }

  /** {@code e} with its output rows counted under its kind. */
  Executor countOut(Executor e) {
    return new Counted(e, rowsOut.labelValues(e.info().name()));
  }

  /** {@code input} with the rows {@code consumerKind} pulls from it counted. */
  Executor countIn(Executor input, String consumerKind) {
    return new Counted(input, rowsIn.labelValues(consumerKind));
  }

  /** Counts the visible rows of the chunks passing through. Confined to the actor thread. */
  private record Counted(Executor inner, CounterDataPoint rows) implements Executor {
    @Override
    public Schema schema() {
      return inner.schema();
    }

    @Override
    public ExecutorInfo info() {
      return inner.info();
    }

    @Override
    public Message next() {
      Message m = inner.next();
      if (m instanceof Message.Chunk c) {
        rows.inc(c.chunk().cardinality());
      }
      return m;
    }
  }
}

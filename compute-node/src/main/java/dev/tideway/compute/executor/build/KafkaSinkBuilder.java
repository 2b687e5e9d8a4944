package dev.tideway.compute.executor.build;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.SinkNode;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.executor.sink.ChangeEncoder;
import dev.tideway.compute.executor.sink.SinkExecutor;
import dev.tideway.connector.kafka.KafkaEpochWriter;
import dev.tideway.connector.kafka.KafkaSinkConfig;
import dev.tideway.storage.table.StateTables;
import java.util.List;
import java.util.Set;

/**
 * Builds {@code Sink} bodies: a {@link SinkExecutor} writing to the Kafka topic its properties
 * name, under the stable id {@code tideway-sink-<log store table id>} (its transactional id and the
 * group that records its delivered epoch). Stateless and thread-safe.
 */
public final class KafkaSinkBuilder implements ExecutorBuilder {
  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(SinkNode.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    SinkNode sink = (SinkNode) node.node();
    Checks.checkState(
        ctx.stateStore() != null, "actor %s: a sink needs a state store", ctx.actorId());
    KafkaSinkConfig config = KafkaSinkConfig.parse(sink.properties());
    KafkaEpochWriter writer =
        new KafkaEpochWriter(config, KafkaEpochWriter.sinkId(sink.logStore().tableId()));
    return new SinkExecutor(
        ctx.infoOf(node),
        inputs.get(0),
        new ChangeEncoder(config.format(), sink.schema(), sink.keyIndices(), columns(sink)),
        writer,
        config.exactlyOnce(),
        StateTables.open(ctx.stateStore(), sink.logStore()),
        ctx.stateStore(),
        sink.logStore().tableId(),
        ctx.connectorStats(),
        ctx.progressSink());
  }

  /** The columns written: {@code _sink.columns} (the query's visible ones), else all. */
  private static List<Integer> columns(SinkNode sink) {
    String cols = sink.properties().get("_sink.columns");
    if (cols == null || cols.isEmpty()) {
      return java.util.stream.IntStream.range(0, sink.schema().size()).boxed().toList();
    }
    return java.util.Arrays.stream(cols.split(",")).map(Integer::valueOf).toList();
  }
}

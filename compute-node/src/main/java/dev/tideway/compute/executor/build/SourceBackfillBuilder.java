package dev.tideway.compute.executor.build;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.SourceBackfillNode;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.executor.ConnectorStats;
import dev.tideway.compute.executor.source.KafkaSplits;
import dev.tideway.compute.executor.source.SourceBackfillExecutor;
import dev.tideway.compute.executor.source.SplitReader;
import dev.tideway.connector.kafka.KafkaSourceConfig;
import dev.tideway.storage.table.StateTables;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds {@code SourceBackfill} bodies: a {@link SourceBackfillExecutor} over the actor's shard of
 * the topic (the same {@code kafka-shard-<k>-of-<n>} as the source actor it is paired with), with a
 * consumer of its own for the history and the paired actor's live rows as its one input. Records
 * that do not parse are counted once, by the shared source, not again here. Stateless.
 */
public final class SourceBackfillBuilder implements ExecutorBuilder {
  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(SourceBackfillNode.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    SourceBackfillNode sb = (SourceBackfillNode) node.node();
    Checks.checkArgument(
        sb.connector() == SourceConnector.KAFKA,
        "actor %s: only kafka sources are shared, not %s",
        ctx.actorId(),
        sb.connector());
    Checks.checkArgument(
        inputs.size() == 1,
        "actor %s: a source backfill needs the shared source's rows as its one input, got %s",
        ctx.actorId(),
        inputs.size());
    Checks.checkArgument(
        ctx.splits().size() == 1,
        "actor %s: a source backfill actor takes one shard, got %s",
        ctx.actorId(),
        ctx.splits());
    Checks.checkState(
        ctx.stateStore() != null, "actor %s: a backfill needs a state store", ctx.actorId());
    Map<String, String> opts = new TreeMap<>(sb.properties());
    String name = opts.remove(SourceBuilder.SOURCE_NAME);
    opts.remove(SourceBuilder.UPSERT_KEY);
    KafkaSourceConfig config = KafkaSourceConfig.parse(opts);
    int[] shard = KafkaSplits.parseShard(ctx.splits().get(0));
    Schema all = sb.schema();
    Schema connector = new Schema(all.fields().subList(0, all.size() - 1));
    KafkaSplits splits =
        new KafkaSplits(
            name == null ? config.topic() : name,
            config,
            connector,
            true,
            shard[0],
            shard[1],
            List.of(),
            "tideway-backfill-" + ctx.actorId(),
            ConnectorStats.NONE);
    try {
      // listed and asked here, before the barrier that adds the actor, not while holding it
      List<SplitReader> readers = splits.initial();
      Map<Integer, Long> starts = splits.startOffsets(readers);
      return new SourceBackfillExecutor(
          ctx.infoOf(node),
          all,
          inputs.get(0),
          splits,
          readers,
          starts,
          StateTables.open(ctx.stateStore(), sb.stateTable()),
          new CreateMviewProgressReporter(ctx.actorId(), ctx.progressSink()),
          ctx.clock(),
          sb.rateLimit());
    } catch (RuntimeException e) {
      splits.close();
      throw e;
    }
  }
}

package dev.tideway.compute.executor.build;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.time.RateLimiter;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.executor.source.DatagenSplitReader;
import dev.tideway.compute.executor.source.KafkaSplits;
import dev.tideway.compute.executor.source.NexmarkConfig;
import dev.tideway.compute.executor.source.NexmarkSplitReader;
import dev.tideway.compute.executor.source.RowIdSplitReader;
import dev.tideway.compute.executor.source.SourceExecutor;
import dev.tideway.compute.executor.source.SplitReader;
import dev.tideway.compute.executor.source.StateTableSplitStateStore;
import dev.tideway.connector.kafka.KafkaSourceConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds {@code Source} bodies: a {@link SourceExecutor} over the readers of the splits the actor
 * owns ({@link ExecutorBuildContext#splits()}, matched by split id against every split the
 * connector's options describe), keeping offsets in the plan's source state table.
 *
 * <p>Options beyond the connector's own: {@code source.rows.per.second} (the actor's rate limit;
 * unlimited by default; {@code datagen.rows.per.second} is its RisingWave name for datagen) and
 * {@code source.chunk.size} (rows per chunk; default the nexmark chunk size or 1024). Stateless and
 * thread-safe.
 */
public final class SourceBuilder implements ExecutorBuilder {
  /** Rows per chunk when the options say nothing. */
  static final int DEFAULT_CHUNK_SIZE = 1024;

  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(StreamNode.Source.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    StreamNode.Source src = (StreamNode.Source) node.node();
    Map<String, String> opts = src.properties();
    if (src.connector() == SourceConnector.KAFKA) {
      return kafka(ctx, node, src);
    }
    List<SplitReader> all;
    int chunkSize;
    if (src.connector() == SourceConnector.NEXMARK) {
      NexmarkConfig c = NexmarkConfig.parse(opts);
      all = NexmarkSplitReader.allSplits(c);
      chunkSize = c.maxChunkSize();
    } else {
      Checks.checkArgument(
          src.connector() == SourceConnector.DATAGEN,
          "actor %s: no source builder for connector %s",
          ctx.actorId(),
          src.connector());
      all = DatagenSplitReader.allSplits(connectorSchema(src), opts);
      chunkSize = DEFAULT_CHUNK_SIZE;
    }
    chunkSize =
        Integer.parseInt(opts.getOrDefault("source.chunk.size", Integer.toString(chunkSize)));
    // datagen.rows.per.second is RisingWave's name for a datagen source's rate
    long rate =
        Long.parseLong(
            opts.getOrDefault(
                "source.rows.per.second",
                opts.getOrDefault(
                    "datagen.rows.per.second", Long.toString(RateLimiter.UNLIMITED))));
    all = withRowIds(src, all);
    List<SplitReader> mine = owned(ctx, node, all);
    Checks.checkState(
        ctx.stateStore() != null, "actor %s: a source needs a state store", ctx.actorId());
    return new SourceExecutor(
        ctx.infoOf(node),
        mine,
        ctx.barrierInbox(),
        new StateTableSplitStateStore(ctx.stateStore(), src.stateTable().tableId()),
        ctx.clock(),
        new SourceExecutor.Options(chunkSize, rate));
  }

  /**
   * A Kafka source: the actor's shard (its one assigned split, {@code kafka-shard-<k>-of-<n>}) owns
   * the partitions {@code p % n == k}, found now and while it runs; row ids are numbered by
   * partition.
   */
  private static Executor kafka(
      ExecutorBuildContext ctx, StreamPlanNode node, StreamNode.Source src) {
    Map<String, String> opts = new java.util.TreeMap<>(src.properties());
    String name = opts.remove(SOURCE_NAME);
    String upsertKey = opts.remove(UPSERT_KEY);
    KafkaSourceConfig config = KafkaSourceConfig.parse(opts);
    Checks.checkArgument(
        ctx.splits().size() == 1,
        "actor %s: a kafka source actor takes one shard, got %s",
        ctx.actorId(),
        ctx.splits());
    int[] shard = KafkaSplits.parseShard(ctx.splits().get(0));
    boolean rowIds = hasRowId(src);
    Schema schema = rowIds ? src.schema() : connectorSchema(src);
    KafkaSplits splits =
        new KafkaSplits(
            name == null ? config.topic() : name,
            config,
            connectorSchema(src),
            rowIds,
            shard[0],
            shard[1],
            upsertKey == null || upsertKey.isEmpty() ? List.of() : List.of(upsertKey.split(",")),
            "tideway-source-" + ctx.actorId(),
            ctx.connectorStats());
    List<SplitReader> initial;
    try {
      initial = splits.initial();
    } catch (RuntimeException e) {
      splits.close();
      throw e;
    }
    int chunkSize =
        Integer.parseInt(
            opts.getOrDefault("source.chunk.size", Integer.toString(DEFAULT_CHUNK_SIZE)));
    long rate =
        Long.parseLong(
            opts.getOrDefault("source.rows.per.second", Long.toString(RateLimiter.UNLIMITED)));
    Checks.checkState(
        ctx.stateStore() != null, "actor %s: a source needs a state store", ctx.actorId());
    SourceExecutor e =
        new SourceExecutor(
            ctx.infoOf(node),
            schema,
            initial,
            splits,
            ctx.barrierInbox(),
            new StateTableSplitStateStore(ctx.stateStore(), src.stateTable().tableId()),
            ctx.clock(),
            new SourceExecutor.Options(chunkSize, rate));
    // a shared source's job sends to no actor until a view is added over it
    return ctx.hasReaders() ? e : e.idleUntilRead();
  }

  /**
   * The plan property naming the source relation (for metrics and logs); the frontend adds it to a
   * connector's options.
   */
  public static final String SOURCE_NAME = "_source.name";

  /**
   * The plan property of a connector table naming its key columns (comma-separated): an upsert
   * source deletes by them.
   */
  public static final String UPSERT_KEY = "_upsert.key";

  /**
   * The plan's source columns without a trailing hidden {@code _row_id} (see {@link #withRowIds}).
   */
  static Schema connectorSchema(StreamNode.Source src) {
    Schema s = src.schema();
    int last = s.size() - 1;
    return hasRowId(src) ? new Schema(s.fields().subList(0, last)) : s;
  }

  private static boolean hasRowId(StreamNode.Source src) {
    Schema s = src.schema();
    int last = s.size() - 1;
    return last > 0
        && s.field(last).name().equals(DmlBuilder.ROW_ID)
        && s.type(last).equals(DataType.BIGINT);
  }

  /**
   * The readers as the plan's source schema wants them: as they are, or, when the plan ends in the
   * relation's hidden {@code _row_id BIGINT} key, with row ids appended ({@link RowIdSplitReader},
   * numbered by their place in {@code all}). Fails naming both schemas when they do not fit.
   */
  static List<SplitReader> withRowIds(StreamNode.Source src, List<SplitReader> all) {
    List<DataType> got = all.get(0).schema().types();
    Checks.checkArgument(
        connectorSchema(src).types().equals(got),
        "source %s: the plan's columns %s are not the connector's %s (with a hidden %s)",
        src.connector(),
        src.schema().types(),
        got,
        DmlBuilder.ROW_ID);
    if (!hasRowId(src)) {
      return all;
    }
    List<SplitReader> out = new ArrayList<>();
    for (int k = 0; k < all.size(); k++) {
      out.add(new RowIdSplitReader(all.get(k), k, DmlBuilder.ROW_ID));
    }
    return out;
  }

  /** The readers of the actor's splits, in the context's order; fails naming an unknown split. */
  static List<SplitReader> owned(
      ExecutorBuildContext ctx, StreamPlanNode node, List<SplitReader> all) {
    List<SplitReader> mine = new ArrayList<>();
    for (String id : ctx.splits()) {
      SplitReader r = all.stream().filter(s -> s.splitId().equals(id)).findFirst().orElse(null);
      Checks.checkArgument(
          r != null,
          "actor %s operator %s: split %s is not one of %s",
          ctx.actorId(),
          node.operatorId(),
          id,
          all.stream().map(SplitReader::splitId).toList());
      mine.add(r);
    }
    Checks.checkArgument(
        !mine.isEmpty(),
        "actor %s operator %s: no splits assigned",
        ctx.actorId(),
        node.operatorId());
    return mine;
  }
}

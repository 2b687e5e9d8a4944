package dev.tideway.frontend.session;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.SinkNode;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.connector.kafka.KafkaSinkConfig;
import dev.tideway.connector.kafka.KafkaSourceConfig;
import dev.tideway.frontend.meta.DdlCommand;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.plan.StreamPlanBuilder;
import dev.tideway.frontend.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * {@code CREATE SINK}: the sink's query is planned as a view's would be (so a sink on an existing
 * view backfills it first, with progress), then its {@code Materialize} is replaced by a singleton
 * {@link SinkNode} behind a SIMPLE exchange. The sink's catalog id is its log store's table id.
 */
final class SinkPlanner {
  private final MetaClient meta;
  private final BiFunction<Statement.CreateMaterializedView, Integer, StreamPlanBuilder.Planned>
      planView;

  SinkPlanner(
      MetaClient meta,
      BiFunction<Statement.CreateMaterializedView, Integer, StreamPlanBuilder.Planned> planView) {
    this.meta = meta;
    this.planView = planView;
  }

  String create(Statement.CreateSink k, String sql, PgSession.NoticeSink notices)
      throws InterruptedException {
    if (meta.relation(k.name()).isPresent()) {
      if (k.ifNotExists()) {
        notices.notice("sink \"" + k.name() + "\" already exists, skipping");
        return "CREATE SINK";
      }
      throw PgException.error(SqlState.DUPLICATE_TABLE, "sink \"" + k.name() + "\" already exists");
    }
    KafkaSinkConfig config = KafkaSinkConfig.parse(k.with());
    DdlRunner.checkTopic(
        KafkaSourceConfig.parse(
            Map.of(
                "topic",
                config.topic(),
                "properties.bootstrap.server",
                config.bootstrapServers())));
    int id = meta.allocateId();
    StreamPlanBuilder.Planned p =
        planView.apply(new Statement.CreateMaterializedView(k.name(), k.query(), false), id);
    TableDesc t = p.table();
    List<Integer> visible = new ArrayList<>();
    for (int c = 0; c < t.columns().size(); c++) {
      if (!p.hidden().contains(t.columns().get(c).name())) {
        visible.add(c);
      }
    }
    List<Integer> key = key(config, t, visible);
    TableDesc log =
        new TableDesc(
            id,
            k.name(),
            List.of(
                new ColumnDesc(0, "epoch", DataType.BIGINT),
                new ColumnDesc(1, "seq", DataType.INT),
                new ColumnDesc(2, "records", DataType.BYTEA)),
            List.of(ColumnOrder.asc(0), ColumnOrder.asc(1)),
            List.of(),
            false,
            false);
    Map<String, String> props = new TreeMap<>(k.with());
    props.put("_sink.columns", String.join(",", visible.stream().map(String::valueOf).toList()));
    StreamPlanNode input = p.root().inputs().get(0);
    if (input.node() instanceof StreamNode.Exchange) {
      input = input.inputs().get(0); // the sink is a singleton: no hash exchange before it
    }
    int next = maxOperatorId(p.root()) + 1;
    Schema schema = input.outputSchema();
    StreamPlanNode simple =
        StreamPlanNode.unary(
            next, new StreamNode.Exchange(DispatcherKind.SIMPLE, List.of()), input, schema);
    StreamPlanNode root =
        StreamPlanNode.unary(next + 1, new SinkNode(props, schema, key, log), simple, schema);
    Relation r =
        new Relation(
            log, RelationKind.SINK, p.hidden(), sql, k.with(), Optional.of(root), p.dependsOn());
    meta.submit(new DdlCommand.Create(r, false), MetaClient.ProgressListener.NONE);
    return "CREATE SINK";
  }

  /** The record key: {@code primary_key}'s columns, else the query's stream key. */
  private static List<Integer> key(KafkaSinkConfig config, TableDesc t, List<Integer> visible) {
    if (config.primaryKey().isEmpty()) {
      return t.pkIndices();
    }
    List<Integer> out = new ArrayList<>();
    for (String name : config.primaryKey()) {
      int at = -1;
      for (int c : visible) {
        if (t.columns().get(c).name().equals(name)) {
          at = c;
        }
      }
      if (at < 0) {
        throw PgException.error(
            SqlState.UNDEFINED_COLUMN,
            "primary_key column \"" + name + "\" is not in the sink's query");
      }
      out.add(at);
    }
    return out;
  }

  private static int maxOperatorId(StreamPlanNode n) {
    int max = n.operatorId();
    for (StreamPlanNode in : n.inputs()) {
      max = Math.max(max, maxOperatorId(in));
    }
    return max;
  }
}

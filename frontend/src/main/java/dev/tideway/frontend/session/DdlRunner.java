package dev.tideway.frontend.session;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.SourceConnector;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.connector.kafka.KafkaSourceConfig;
import dev.tideway.connector.kafka.KafkaTopics;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.DdlCommand;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgAuth;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession;
import dev.tideway.frontend.pgwire.SqlState;
import dev.tideway.frontend.plan.LogicalPlanner;
import dev.tideway.frontend.plan.StreamPlanBuilder;
import dev.tideway.frontend.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.calcite.rel.RelNode;

/**
 * CREATE TABLE / SOURCE / MATERIALIZED VIEW and DROP: builds the catalog {@link Relation} (and, for
 * views, plans the query) and submits it to the {@link MetaClient}. A table without a primary key
 * gets a hidden {@code _row_id BIGINT} key, as RisingWave's.
 *
 * <p>Thread confinement: the session's connection thread.
 */
final class DdlRunner {
  private final MetaClient meta;
  private final BatchReader reader;

  DdlRunner(MetaClient meta, BatchReader reader) {
    this.meta = meta;
    this.reader = reader;
  }

  private boolean exists(String name, boolean ifNotExists, PgSession.NoticeSink notices) {
    if (meta.relation(name).isEmpty()) {
      return false;
    }
    if (ifNotExists) {
      notices.notice("relation \"" + name + "\" already exists, skipping");
      return true;
    }
    throw PgException.error(SqlState.DUPLICATE_TABLE, "relation \"" + name + "\" already exists");
  }

  /** {@code CREATE TABLE | SOURCE | SINK}. */
  String create(Statement s, String sql, PgSession.NoticeSink notices) throws InterruptedException {
    if (s instanceof Statement.CreateTable ct) {
      return createTable(ct, sql, notices);
    }
    if (s instanceof Statement.CreateSource cs) {
      return createSource(cs, sql, notices);
    }
    return new SinkPlanner(meta, this::planView).create((Statement.CreateSink) s, sql, notices);
  }

  /** {@link #exists} for other DDL of this package. */
  boolean alreadyExists(String name, boolean ifNotExists, PgSession.NoticeSink notices) {
    return exists(name, ifNotExists, notices);
  }

  String createTable(Statement.CreateTable ct, String sql, PgSession.NoticeSink notices)
      throws InterruptedException {
    if (exists(ct.name(), ct.ifNotExists(), notices)) {
      return "CREATE TABLE";
    }
    if (!ct.connector().isEmpty()) {
      checkTopic(KafkaSourceConfig.parse(ct.connector()));
    }
    Relation r =
        tableRelation(
            ct.name(), ct.columns(), ct.primaryKey(), RelationKind.TABLE, sql, ct.connector());
    meta.submit(new DdlCommand.Create(r, false), MetaClient.ProgressListener.NONE);
    return "CREATE TABLE";
  }

  String createSource(Statement.CreateSource cs, String sql, PgSession.NoticeSink notices)
      throws InterruptedException {
    exists(cs.name(), false, notices);
    Relation r =
        tableRelation(cs.name(), cs.columns(), List.of(), RelationKind.SOURCE, sql, cs.with());
    if ("kafka".equalsIgnoreCase(cs.with().get("connector"))) {
      checkTopic(KafkaSourceConfig.parse(cs.with()));
      r = sharedSource(r);
    }
    meta.submit(new DdlCommand.Create(r, false), MetaClient.ProgressListener.NONE);
    return "CREATE SOURCE";
  }

  /** How long {@code CREATE SOURCE} waits for Kafka to describe the topic. */
  private static final Duration KAFKA_CHECK_TIMEOUT = Duration.ofSeconds(5);

  /** A kafka source's topic must exist and its cluster answer before the source is created. */
  static void checkTopic(KafkaSourceConfig config) {
    try {
      KafkaTopics.partitionCount(config, KAFKA_CHECK_TIMEOUT);
    } catch (KafkaTopics.KafkaUnreachableException e) {
      throw PgException.error(SqlState.CONNECTION_FAILURE, e.getMessage());
    } catch (IllegalArgumentException e) {
      throw PgException.error(SqlState.INVALID_PARAMETER_VALUE, e.getMessage());
    }
  }

  private Relation tableRelation(
      String name,
      List<Statement.ColumnDef> defs,
      List<String> pkNames,
      RelationKind kind,
      String sql,
      Map<String, String> props) {
    List<ColumnDesc> cols = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Statement.ColumnDef d : defs) {
      if (!seen.add(d.name())) {
        throw PgException.error("42701", "column \"" + d.name() + "\" specified more than once");
      }
      cols.add(new ColumnDesc(cols.size(), d.name(), d.type()));
    }
    Set<String> hidden = new HashSet<>();
    List<ColumnOrder> pk = new ArrayList<>();
    for (String p : pkNames) {
      int at = seen.contains(p) ? indexOf(cols, p) : -1;
      if (at < 0) {
        throw PgException.error(
            SqlState.UNDEFINED_COLUMN, "column \"" + p + "\" named in key does not exist");
      }
      pk.add(ColumnOrder.asc(at));
    }
    if (pk.isEmpty()) {
      cols.add(new ColumnDesc(cols.size(), Relation.ROW_ID, DataType.BIGINT));
      hidden.add(Relation.ROW_ID);
      pk.add(ColumnOrder.asc(cols.size() - 1));
    }
    List<Integer> dist = pk.stream().map(ColumnOrder::index).toList();
    TableDesc t = new TableDesc(meta.allocateId(), name, cols, pk, dist, false, false);
    StreamPlanNode plan;
    if (kind == RelationKind.TABLE && !props.isEmpty()) {
      plan = connectorTablePlan(t, props);
    } else {
      StreamPlanNode dml =
          StreamPlanNode.leaf(1, new StreamNode.Dml(t.tableId(), t.schema()), t.schema());
      plan = StreamPlanNode.unary(2, new StreamNode.Materialize(t), dml, t.schema());
    }
    Optional<StreamPlanNode> p = kind == RelationKind.TABLE ? Optional.of(plan) : Optional.empty();
    return new Relation(t, kind, hidden, sql, props, p, List.of());
  }

  /**
   * A table fed by a connector: its source (rows with row ids when the table has no key, an upsert
   * source's key columns named for it) hashed by the table's key into its Materialize, which keeps
   * the latest row per key (an insert of a stored key replaces it, a delete removes it).
   */
  private StreamPlanNode connectorTablePlan(TableDesc t, Map<String, String> props) {
    Map<String, String> p = new java.util.TreeMap<>(props);
    p.put("_source.name", t.name());
    List<String> keyNames = new ArrayList<>();
    for (int k : t.pkIndices()) {
      keyNames.add(t.columns().get(k).name());
    }
    p.put("_upsert.key", String.join(",", keyNames));
    TableDesc offsets =
        new TableDesc(
            meta.allocateId(),
            "__internal_" + t.name() + "_source_1",
            List.of(
                new ColumnDesc(0, "split_id", DataType.VARCHAR),
                new ColumnDesc(1, "offset", DataType.VARCHAR)),
            List.of(ColumnOrder.asc(0)),
            List.of(),
            false,
            false);
    StreamPlanNode src =
        StreamPlanNode.leaf(
            1, new StreamNode.Source(SourceConnector.KAFKA, p, t.schema(), offsets), t.schema());
    StreamPlanNode exchange =
        StreamPlanNode.unary(
            2, new StreamNode.Exchange(DispatcherKind.HASH, t.distributionKey()), src, t.schema());
    return StreamPlanNode.unary(3, new StreamNode.Materialize(t), exchange, t.schema());
  }

  /**
   * A kafka source is shared: it runs as a job of its own (one consumer whatever the number of
   * views over it), its plan the source alone, rows with row ids that name partition and offset. A
   * view over it starts with a source backfill paired with it.
   */
  private Relation sharedSource(Relation r) {
    TableDesc offsets =
        new TableDesc(
            meta.allocateId(),
            "__internal_" + r.name() + "_source_1",
            List.of(
                new ColumnDesc(0, "split_id", DataType.VARCHAR),
                new ColumnDesc(1, "offset", DataType.BIGINT)),
            List.of(ColumnOrder.asc(0)),
            List.of(0),
            false,
            false);
    TableDesc t = r.table();
    StreamPlanNode src =
        StreamPlanNode.leaf(
            1,
            new StreamNode.Source(SourceConnector.KAFKA, r.properties(), t.schema(), offsets),
            t.schema());
    return new Relation(
        t,
        r.kind(),
        r.hiddenColumns(),
        r.definition(),
        r.properties(),
        Optional.of(src),
        r.dependsOn());
  }

  private static int indexOf(List<ColumnDesc> cols, String name) {
    for (int i = 0; i < cols.size(); i++) {
      if (cols.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** Plans a view; the plan is also what EXPLAIN CREATE MATERIALIZED VIEW prints. */
  StreamPlanBuilder.Planned planView(Statement.CreateMaterializedView mv, int id) {
    RelNode rel = LogicalPlanner.plan(mv.query(), meta, reader, mv.columns());
    return StreamPlanBuilder.plan(rel, id, mv.name(), meta);
  }

  String createView(
      Statement.CreateMaterializedView mv,
      String sql,
      boolean background,
      OptionalLong backfillRateLimit,
      PgSession.NoticeSink notices,
      Session.JobSlot job)
      throws InterruptedException {
    if (exists(mv.name(), mv.ifNotExists(), notices)) {
      return "CREATE MATERIALIZED VIEW";
    }
    int id = meta.allocateId();
    StreamPlanBuilder.Planned p = planView(mv, id);
    Relation r =
        new Relation(
            p.table(),
            RelationKind.MATERIALIZED_VIEW,
            p.hidden(),
            sql,
            Map.of(),
            Optional.of(p.root()),
            p.dependsOn());
    job.set(id);
    try {
      meta.submit(
          new DdlCommand.Create(r, background, backfillRateLimit),
          progress ->
              notices.notice(
                  "CREATE MATERIALIZED VIEW " + mv.name() + ": " + progress.progress().render()));
    } finally {
      job.clear();
    }
    return "CREATE MATERIALIZED VIEW";
  }

  String drop(Statement.Drop d, PgSession.NoticeSink notices) throws InterruptedException {
    String what = d.kind().sqlName();
    Optional<Relation> r = meta.relation(d.name());
    if (r.isEmpty()) {
      if (d.ifExists()) {
        notices.notice(what + " \"" + d.name() + "\" does not exist, skipping");
        return "DROP " + what.toUpperCase();
      }
      throw PgException.error(
          SqlState.UNDEFINED_TABLE, what + " \"" + d.name() + "\" does not exist");
    }
    if (r.get().kind() != d.kind()) {
      throw PgException.error("42809", "\"" + d.name() + "\" is not a " + what)
          .withHint(
              "Use DROP "
                  + r.get().kind().sqlName().toUpperCase()
                  + " to remove a "
                  + r.get().kind().sqlName()
                  + ".");
    }
    List<String> dependents = new ArrayList<>();
    for (Relation x :
        java.util.stream.Stream.concat(meta.relations().stream(), meta.sinks().stream()).toList()) {
      if (x.dependsOn().contains(r.get().id())) {
        dependents.add(x.name());
      }
    }
    if (!dependents.isEmpty() && !d.cascade()) {
      throw PgException.error(
              SqlState.DEPENDENT_OBJECTS_STILL_EXIST,
              "cannot drop " + what + " " + d.name() + " because other objects depend on it")
          .withDetail(
              "materialized view "
                  + String.join(", ", dependents)
                  + " depends on "
                  + what
                  + " "
                  + d.name())
          .withHint("Use DROP ... CASCADE to drop the dependent objects too.");
    }
    meta.submit(new DdlCommand.Drop(r.get().id(), d.cascade()), MetaClient.ProgressListener.NONE);
    return "DROP " + what.toUpperCase();
  }

  /**
   * {@code CREATE | ALTER | DROP USER}: a password becomes its SCRAM-SHA-256 verifier here, so the
   * catalog never holds it (one given already in that form is kept as it is).
   */
  String users(Statement.UserDdl u) {
    dev.tideway.frontend.meta.Users users = meta.users();
    Map<String, String> props = new java.util.HashMap<>(u.options());
    String pw = props.get("password");
    if (pw != null && !pw.isEmpty() && !PgAuth.isScramVerifier(pw)) {
      props.put("password", PgAuth.scramVerifier(pw));
    }
    switch (u.kind()) {
      case CREATE -> users.create(u.names().get(0), props);
      case ALTER -> users.alter(u.names().get(0), props);
      case DROP -> {
        for (String n : u.names()) {
          if (users.find(n).isPresent()) {
            users.drop(n);
          } else if (!u.ifExists()) {
            throw dev.tideway.frontend.meta.Users.missing(n);
          }
        }
      }
      default -> throw new IllegalStateException("unknown user statement " + u.kind());
    }
    return u.kind() + " ROLE";
  }
}

package dev.tideway.frontend.syscatalog;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.frontend.meta.ComputeStatus;
import dev.tideway.frontend.meta.DdlJob;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.meta.TableStats;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * {@code rw_catalog}: RisingWave's progress and statistics relations. {@code rw_ddl_progress} keeps
 * RisingWave's columns ({@code ddl_id, ddl_statement, create_type, progress, initialized_at}) and
 * adds the structured columns of the barrier module's {@link JobProgress} (through {@link DdlJob}).
 */
public final class RwCatalog {
  private RwCatalog() {}

  static final String DDL_PROGRESS_COLUMNS =
      "ddl_id bigint, ddl_statement varchar, create_type varchar, progress varchar,"
          + " initialized_at timestamptz, phase varchar, consumed_rows bigint, upstream_rows bigint,"
          + " denominator_exact boolean, ratio double, rows_per_second double, eta_seconds bigint,"
          + " log_store_pending_barriers bigint, log_store_lag_ms bigint, stalled_reason varchar";

  static final String EXPRESSION_ERROR_COLUMNS =
      "job_id int, job_name varchar, fragment_id int, error_kind varchar, error_count bigint,"
          + " last_error varchar, last_error_at timestamptz";

  public static AbstractSchema schema(MetaClient meta) {
    return schema(meta, ComputeStatus.NONE);
  }

  /** {@code rw_catalog} with {@code rw_expression_errors} read from {@code compute}. */
  public static AbstractSchema schema(MetaClient meta, ComputeStatus compute) {
    Map<String, Table> t = new LinkedHashMap<>();
    t.put(
        "rw_expression_errors",
        PgCatalog.table(EXPRESSION_ERROR_COLUMNS, m -> expressionErrors(m, compute), meta));
    t.put("rw_ddl_progress", PgCatalog.table(DDL_PROGRESS_COLUMNS, RwCatalog::ddlProgress, meta));
    t.put(
        "rw_table_stats",
        PgCatalog.table(
            "id int, total_key_count bigint, live_rows bigint, total_key_size bigint, total_value_size bigint",
            RwCatalog::tableStats,
            meta));
    t.put(
        "rw_tables",
        PgCatalog.table(
            "id int, name varchar, definition varchar",
            m -> relations(m, RelationKind.TABLE),
            meta));
    t.put(
        "rw_materialized_views",
        PgCatalog.table(
            "id int, name varchar, definition varchar",
            m -> relations(m, RelationKind.MATERIALIZED_VIEW),
            meta));
    t.put(
        "rw_sources",
        PgCatalog.table(
            "id int, name varchar, definition varchar",
            m -> relations(m, RelationKind.SOURCE),
            meta));
    t.put(
        "rw_sinks",
        PgCatalog.table(
            "id int, name varchar, connector varchar, topic varchar, format varchar,"
                + " delivery varchar, definition varchar, delivered_epoch bigint,"
                + " delivered_at timestamptz, error varchar",
            RwCatalog::sinks,
            meta));
    return PgCatalog.schema(t);
  }

  /**
   * Every sink with where it writes and how, and how far its delivery is ({@link SinkDelivery}).
   */
  private static List<Object[]> sinks(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    for (Relation r : m.sinks()) {
      Map<String, String> p = r.properties();
      Object[] delivery = SinkDelivery.of(r);
      out.add(
          new Object[] {
            r.id(),
            r.name(),
            p.getOrDefault("connector", ""),
            p.getOrDefault("topic", ""),
            p.getOrDefault("format", "plain"),
            p.getOrDefault("sink.delivery", "exactly_once"),
            r.definition(),
            delivery[0],
            delivery[1],
            delivery[2]
          });
    }
    return out;
  }

  static List<Object[]> ddlProgress(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    for (DdlJob j : m.jobs()) {
      if (j.paused()) {
        continue;
      }
      JobProgress p = j.progress();
      out.add(
          new Object[] {
            j.ddlId(),
            j.statement(),
            j.createType(),
            p.render(),
            j.initializedAt(),
            p.phase().name(),
            p.totalConsumed(),
            p.totalDenominator(),
            p.denominatorExact(),
            p.displayRatio(),
            p.rowsPerSecond(),
            p.etaSeconds().isPresent() ? p.etaSeconds().getAsLong() : null,
            p.logStorePendingBarriers(),
            p.logStoreLagMs(),
            p.stalledReason().orElse(null)
          });
    }
    return out;
  }

  /**
   * The nodes' counts summed per job, fragment and kind, with the latest error of any node: each is
   * a value a streaming job set to NULL because evaluating it failed.
   */
  static List<Object[]> expressionErrors(MetaClient m, ComputeStatus compute) {
    Map<List<Object>, ExpressionErrorCount> merged = new TreeMap<>(RwCatalog::compareKeys);
    for (ExpressionErrorCount c : compute.expressionErrors()) {
      merged.merge(c.key(), c, ExpressionErrorCount::plus);
    }
    Map<Integer, String> names = new HashMap<>();
    m.relations().forEach(r -> names.put(r.id(), r.name()));
    List<Object[]> out = new ArrayList<>();
    for (ExpressionErrorCount c : merged.values()) {
      out.add(
          new Object[] {
            c.jobId(),
            names.get(c.jobId()),
            c.fragmentId(),
            c.kind(),
            c.count(),
            c.lastMessage(),
            Instant.ofEpochMilli(c.lastAtMillis())
          });
    }
    return out;
  }

  private static int compareKeys(List<Object> a, List<Object> b) {
    int c = Integer.compare((Integer) a.get(0), (Integer) b.get(0));
    c = c != 0 ? c : Integer.compare((Integer) a.get(1), (Integer) b.get(1));
    return c != 0 ? c : ((String) a.get(2)).compareTo((String) b.get(2));
  }

  private static List<Object[]> tableStats(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    for (TableStats s : m.tableStats()) {
      out.add(
          new Object[] {
            s.tableId(), s.totalKeyCount(), s.liveRows(), s.totalKeySize(), s.totalValueSize()
          });
    }
    return out;
  }

  private static List<Object[]> relations(MetaClient m, RelationKind kind) {
    List<Object[]> out = new ArrayList<>();
    for (Relation r : m.relations()) {
      if (r.kind() == kind) {
        out.add(new Object[] {r.id(), r.name(), r.definition()});
      }
    }
    return out;
  }
}

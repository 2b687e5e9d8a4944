package dev.tideway.frontend.syscatalog;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.frontend.meta.DdlJob;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.meta.TableStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

  public static AbstractSchema schema(MetaClient meta) {
    Map<String, Table> t = new LinkedHashMap<>();
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
    return PgCatalog.schema(t);
  }

  static List<Object[]> ddlProgress(MetaClient m) {
    List<Object[]> out = new ArrayList<>();
    for (DdlJob j : m.jobs()) {
      JobProgress p = j.progress();
      out.add(
          new Object[] {
            j.ddlId(),
            j.statement(),
            j.createType(),
            p.render(),
            j.initializedAt(),
            p.phase().name(),
            p.consumedRows(),
            p.denominator(),
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

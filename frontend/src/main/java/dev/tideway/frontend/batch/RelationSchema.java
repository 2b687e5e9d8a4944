package dev.tideway.frontend.batch;

import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The {@code public} schema (visible columns) or the internal one DML reads (all columns): its
 * table map is rebuilt from {@link MetaClient#relations()} at every lookup, so tables created by
 * other sessions are seen at once (the schema is registered with caching off).
 */
public final class RelationSchema extends AbstractSchema {
  private final MetaClient meta;
  private final BatchReader reader;
  private final boolean allColumns;
  private final org.apache.calcite.schema.Schema fallback;

  public RelationSchema(MetaClient meta, BatchReader reader, boolean allColumns) {
    this(meta, reader, allColumns, null);
  }

  /**
   * @param fallback tables also visible unqualified (pg_catalog's, as PostgreSQL's search path puts
   *     pg_catalog first), shadowed by user relations of the same name; may be null
   */
  public RelationSchema(
      MetaClient meta,
      BatchReader reader,
      boolean allColumns,
      org.apache.calcite.schema.Schema fallback) {
    this.meta = meta;
    this.reader = reader;
    this.allColumns = allColumns;
    this.fallback = fallback;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    Map<String, Table> out = new LinkedHashMap<>();
    if (fallback != null) {
      for (String n : fallback.getTableNames()) {
        out.put(n, fallback.getTable(n));
      }
    }
    for (Relation r : meta.relations()) {
      out.put(r.name(), new StoredTable(r, allColumns, reader, meta::committedEpoch));
    }
    return out;
  }

  @Override
  public boolean isMutable() {
    return false;
  }
}

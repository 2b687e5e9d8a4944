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

  public RelationSchema(MetaClient meta, BatchReader reader, boolean allColumns) {
    this.meta = meta;
    this.reader = reader;
    this.allColumns = allColumns;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    Map<String, Table> out = new LinkedHashMap<>();
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

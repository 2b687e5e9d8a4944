package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A state table as an operator sees it: what the storage engine keys by and what the progress
 * tracker counts. Materialized views, tables, and the internal state of aggregations, joins,
 * sources and backfills are all described this way.
 *
 * <p>Invariants (checked here): column ids are unique; the primary key is non-empty unless the
 * table is a singleton state row ({@code pk} empty means "one row", e.g. a global aggregate), names
 * each column at most once; the distribution key is a subset of the primary key columns, so the
 * vnode of a row is a function of its key.
 *
 * @param tableId the catalog id, {@code > 0}; the first 4 bytes of every storage key
 * @param name a readable name for logs and catalogs ({@code __internal_mv1_hashagg_3})
 * @param columns the stored columns in order
 * @param pk the primary key (sort key) columns with their order
 * @param distributionKey column indices hashed to a vnode; empty = singleton (vnode 0)
 * @param appendOnly the table only ever receives inserts (lets executors skip retraction state)
 * @param changeLog the table also keeps its change log, so a snapshot backfill can consume the
 *     changes made after its snapshot epoch
 */
public record TableDesc(
    int tableId,
    String name,
    List<ColumnDesc> columns,
    List<ColumnOrder> pk,
    List<Integer> distributionKey,
    boolean appendOnly,
    boolean changeLog) {
  public TableDesc {
    Checks.checkArgument(tableId > 0, "table id must be > 0, got %s ('%s')", tableId, name);
    Checks.checkNotNull(name, "table name");
    columns = List.copyOf(columns);
    pk = List.copyOf(pk);
    distributionKey = List.copyOf(distributionKey);
    Set<Integer> ids = new HashSet<>();
    for (ColumnDesc c : columns) {
      Checks.checkArgument(
          ids.add(c.columnId()), "table %s: column id %s used twice", tableId, c.columnId());
    }
    Set<Integer> pkIndices = new HashSet<>();
    for (ColumnOrder o : pk) {
      Checks.checkArgument(
          o.index() < columns.size(),
          "table %s: pk column %s out of [0, %s)",
          tableId,
          o.index(),
          columns.size());
      Checks.checkArgument(
          pkIndices.add(o.index()), "table %s: pk names column %s twice", tableId, o.index());
    }
    PlanChecks.checkIndices(
        distributionKey, columns.size(), "table " + tableId + " distribution key");
    Checks.checkArgument(
        pkIndices.containsAll(distributionKey),
        "table %s: distribution key %s is not a subset of the pk %s",
        tableId,
        distributionKey,
        pk);
  }

  /** The columns as a schema. */
  public Schema schema() {
    return new Schema(columns.stream().map(ColumnDesc::field).toList());
  }

  /** The column types in order. */
  public List<DataType> types() {
    return columns.stream().map(ColumnDesc::type).toList();
  }

  /** The pk column indices in key order. */
  public List<Integer> pkIndices() {
    return pk.stream().map(ColumnOrder::index).toList();
  }
}

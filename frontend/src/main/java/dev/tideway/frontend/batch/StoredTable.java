package dev.tideway.frontend.batch;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.row.Row;
import dev.tideway.frontend.meta.BatchReader;
import dev.tideway.frontend.meta.PkRange;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.sql.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A table, source or MV as Calcite sees it: its visible columns (or all of them, for the internal
 * schema DML uses), scanned through a {@link BatchReader} at the committed epoch. Its statistic
 * names the primary key as unique key, which the stream planner reads as the stream key. A plain
 * scan reads every row; under a filter on the pk the planner puts a {@link PkScan}, which reads
 * only the pk range the filter implies ({@link #scan(PkRange)}) while the filter stays in the plan.
 */
public final class StoredTable extends AbstractTable implements ScannableTable {
  private final Relation relation;
  private final boolean allColumns;
  private final BatchReader reader;
  private final LongSupplier epoch;

  public StoredTable(
      Relation relation, boolean allColumns, BatchReader reader, LongSupplier epoch) {
    this.relation = relation;
    this.allColumns = allColumns;
    this.reader = reader;
    this.epoch = epoch;
  }

  public Relation relation() {
    return relation;
  }

  private int[] columnIndices() {
    return allColumns
        ? java.util.stream.IntStream.range(0, relation.table().columns().size()).toArray()
        : relation.visibleIndices();
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    for (int i : columnIndices()) {
      ColumnDesc c = relation.table().columns().get(i);
      b.add(c.name(), SqlTypes.toRelType(f, c.type()));
    }
    return b.build();
  }

  @Override
  public Statistic getStatistic() {
    int[] idx = columnIndices();
    List<Integer> key = new ArrayList<>();
    for (ColumnOrder o : relation.table().pk()) {
      int pos = indexOf(idx, o.index());
      if (pos < 0) {
        return Statistics.UNKNOWN;
      }
      key.add(pos);
    }
    // A unique key, but no collation: storage scans run vnode by vnode, so rows are not in pk
    // order overall (declaring it would let Calcite drop an ORDER BY).
    return Statistics.of(100d, List.of(ImmutableBitSet.of(key)), List.of());
  }

  private static int indexOf(int[] a, int v) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] == v) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The pk range these filters restrict a scan to; {@code root} supplies bound parameters (null:
   * unknown, as in EXPLAIN).
   */
  public PkRange pkRange(List<RexNode> filters, DataContext root) {
    return PkRanges.derive(
        columnIndices(), relation.table().pk(), relation.table().types(), filters, root);
  }

  /**
   * Whether some of these conjuncts could restrict a scan to a pk range (with parameters bound at
   * execution): the planner puts a {@link PkScan} only under such filters.
   */
  boolean mayRange(List<RexNode> conjuncts) {
    return PkRanges.mayRange(
        columnIndices(), relation.table().pk(), relation.table().types(), conjuncts);
  }

  /** The pk columns' names, in pk order (for EXPLAIN). */
  public List<String> pkNames() {
    List<String> out = new ArrayList<>();
    for (ColumnOrder o : relation.table().pk()) {
      out.add(relation.table().columns().get(o.index()).name());
    }
    return out;
  }

  /** Every row (Calcite's plain scan, when no filter sits on the table). */
  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    return cancellable(scan(PkRange.ALL), root);
  }

  /**
   * {@code rows}, failing with "canceling statement" once the query is cancelled (the session's
   * cancel sets the execution's cancel flag): checked when the scan opens and every 1024 rows it
   * hands on, so a cancelled query stops within moments even while joins pull through it.
   */
  static Enumerable<Object[]> cancellable(Enumerable<Object[]> rows, DataContext root) {
    java.util.concurrent.atomic.AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    if (flag == null) {
      return rows;
    }
    return new org.apache.calcite.linq4j.AbstractEnumerable<>() {
      @Override
      public org.apache.calcite.linq4j.Enumerator<Object[]> enumerator() {
        checkNotCancelled(flag);
        org.apache.calcite.linq4j.Enumerator<Object[]> in = rows.enumerator();
        return new org.apache.calcite.linq4j.Enumerator<>() {
          private int n;

          @Override
          public Object[] current() {
            return in.current();
          }

          @Override
          public boolean moveNext() {
            if ((++n & 1023) == 0) {
              checkNotCancelled(flag);
            }
            return in.moveNext();
          }

          @Override
          public void reset() {
            in.reset();
          }

          @Override
          public void close() {
            in.close();
          }
        };
      }
    };
  }

  private static void checkNotCancelled(java.util.concurrent.atomic.AtomicBoolean flag) {
    if (flag.get()) {
      throw new java.util.concurrent.CancellationException(
          "canceling statement due to user request");
    }
  }

  /**
   * The rows whose pk lies in {@code range}, or more (a reader may return more than the range; the
   * query's filter, which stays in the plan above a {@link PkScan}, decides the result).
   */
  Enumerable<Object[]> scan(PkRange range) {
    int[] idx = columnIndices();
    List<ColumnDesc> cols = relation.table().columns();
    List<Row> rows =
        range.isAll()
            ? reader.scan(relation.id(), epoch.getAsLong())
            : reader.scan(relation.id(), epoch.getAsLong(), range);
    List<Object[]> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      Object[] v = new Object[idx.length];
      for (int i = 0; i < idx.length; i++) {
        v[i] = CalciteValues.toInternal(cols.get(idx[i]).type(), r.get(idx[i]));
      }
      out.add(v);
    }
    return Linq4j.asEnumerable(out);
  }
}

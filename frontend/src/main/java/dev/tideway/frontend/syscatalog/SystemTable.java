package dev.tideway.frontend.syscatalog;

import dev.tideway.common.types.DataType;
import dev.tideway.frontend.batch.CalciteValues;
import dev.tideway.frontend.sql.SqlTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

/**
 * A read-only virtual table whose rows are computed from the catalog at every scan ({@code
 * pg_catalog.*}, {@code rw_catalog.*}). Rows hold Tideway Java values, converted here.
 */
public final class SystemTable extends AbstractTable implements ScannableTable {
  /** A column of a system table. */
  public record Col(String name, DataType type) {}

  private final List<Col> columns;
  private final Supplier<List<Object[]>> rows;

  public SystemTable(List<Col> columns, Supplier<List<Object[]>> rows) {
    this.columns = List.copyOf(columns);
    this.rows = rows;
  }

  /** Columns from {@code "name type, name type"} ({@link DataType#parse} names). */
  public static List<Col> cols(String spec) {
    List<Col> out = new ArrayList<>();
    for (String c : spec.split(",")) {
      String[] p = c.trim().split("\\s+", 2);
      out.add(new Col(p[0], DataType.parse(p[1])));
    }
    return out;
  }

  public List<Col> columns() {
    return columns;
  }

  /** The rows as Tideway values. */
  public List<Object[]> rows() {
    return rows.get();
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory f) {
    RelDataTypeFactory.Builder b = f.builder();
    for (Col c : columns) {
      b.add(c.name(), SqlTypes.toRelType(f, c.type()));
    }
    return b.build();
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    List<Object[]> out = new ArrayList<>();
    for (Object[] r : rows.get()) {
      Object[] v = new Object[columns.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] =
            CalciteValues.toInternal(
                columns.get(i).type(), CalciteValues.coerce(columns.get(i).type(), r[i]));
      }
      out.add(v);
    }
    return Linq4j.asEnumerable(out);
  }
}

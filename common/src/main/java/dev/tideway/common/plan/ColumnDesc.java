package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;

/**
 * A column of a table as stored: a stable column id (survives renames and schema changes), a name
 * and a type.
 *
 * @param columnId stable id, unique within its table, {@code >= 0}
 * @param name the column name (hidden columns start with {@code _}, e.g. {@code _row_id})
 * @param type the SQL type
 */
public record ColumnDesc(int columnId, String name, DataType type) {
  public ColumnDesc {
    Checks.checkArgument(columnId >= 0, "column id must be >= 0, got %s for '%s'", columnId, name);
    Checks.checkNotNull(name, "column name");
    Checks.checkNotNull(type, "column type");
  }

  /** The column as a schema field. */
  public Field field() {
    return new Field(name, type);
  }
}

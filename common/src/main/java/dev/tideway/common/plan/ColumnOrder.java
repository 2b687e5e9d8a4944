package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;

/**
 * One column of a sort key (a table's primary key): which column, which direction, and where NULLs
 * go. The memcomparable key encoding follows it, so the byte order of encoded keys is this order.
 *
 * @param index the column's position in the table's columns
 * @param descending true for {@code DESC}
 * @param nullsFirst true when NULL sorts before every value (PostgreSQL's default for {@code DESC};
 *     {@code NULLS LAST} is its default for {@code ASC})
 */
public record ColumnOrder(int index, boolean descending, boolean nullsFirst) {
  public ColumnOrder {
    Checks.checkArgument(index >= 0, "column order index must be >= 0, got %s", index);
  }

  /** {@code ASC NULLS LAST}, PostgreSQL's default. */
  public static ColumnOrder asc(int index) {
    return new ColumnOrder(index, false, false);
  }

  /** {@code DESC NULLS FIRST}, PostgreSQL's default for descending. */
  public static ColumnOrder desc(int index) {
    return new ColumnOrder(index, true, true);
  }

  @Override
  public String toString() {
    return "$" + index + (descending ? " DESC" : " ASC") + (nullsFirst ? " NULLS FIRST" : "");
  }
}

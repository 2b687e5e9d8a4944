package dev.tideway.common.testing;

import dev.tideway.common.key.OrderType;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/** Test oracles over SQL values: the order a key must have, and "the same value" after a trip. */
public final class Values {
  private Values() {}

  /**
   * The SQL order of two keys, column by column: {@link Datums#compareNullable} with each column's
   * NULL placement, the value order reversed for DESC (NULL placement is not).
   */
  public static int compareKeys(List<DataType> types, List<OrderType> orders, Row a, Row b) {
    for (int c = 0; c < types.size(); c++) {
      Object x = a.get(c);
      Object y = b.get(c);
      int r;
      if (x == null || y == null) {
        r = Datums.compareNullable(types.get(c), x, y, orders.get(c).nullsFirst());
      } else {
        r = Datums.compare(types.get(c), x, y);
        r = orders.get(c).descending() ? -r : r;
      }
      if (r != 0) {
        return r;
      }
    }
    return 0;
  }

  /**
   * True when {@code actual} is {@code expected} as the key encoding promises to restore it: SQL
   * equal for REAL/DOUBLE (-0.0 comes back 0.0, every NaN the canonical one), DECIMAL equal by
   * value and at the column's scale when it has one, everything else {@code equals} ({@code byte[]}
   * by content).
   */
  public static boolean sameKeyValue(DataType type, Object expected, Object actual) {
    if (expected == null || actual == null) {
      return expected == actual;
    }
    return switch (type.id()) {
      case REAL, DOUBLE -> Datums.compare(type, expected, actual) == 0;
      case DECIMAL ->
          ((BigDecimal) expected).compareTo((BigDecimal) actual) == 0
              && (type.precision() == 0 || ((BigDecimal) actual).scale() == type.scale());
      case BYTEA -> Arrays.equals((byte[]) expected, (byte[]) actual);
      default -> Objects.equals(expected, actual);
    };
  }
}

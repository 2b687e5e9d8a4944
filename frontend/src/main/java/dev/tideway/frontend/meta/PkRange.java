package dev.tideway.frontend.meta;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A range of a table's primary key that a batch scan may restrict itself to: the first {@code
 * equal.size()} pk columns (in pk order) equal these values, and the next pk column, when bounded,
 * lies within {@code lower}/{@code upper} (in SQL order of values, whatever the column's storage
 * order). Values are Tideway values of the columns' types (see {@code DataType}), never null.
 *
 * <p>A range only narrows what is read: the query still applies its whole predicate, so a reader
 * may return more rows than the range holds, never fewer.
 */
public record PkRange(List<Object> equal, Optional<Bound> lower, Optional<Bound> upper) {
  /** One end of the range on the first non-equal pk column. */
  public record Bound(Object value, boolean inclusive) {
    public Bound {
      Checks.checkNotNull(value, "a pk range bound is never null");
    }
  }

  /** Every row: a full scan. */
  public static final PkRange ALL = new PkRange(List.of(), Optional.empty(), Optional.empty());

  public PkRange {
    for (Object v : equal) {
      Checks.checkNotNull(v, "a pk range's equal values are never null");
    }
    equal = List.copyOf(equal);
    Checks.checkNotNull(lower, "lower bound");
    Checks.checkNotNull(upper, "upper bound");
  }

  public boolean isAll() {
    return equal.isEmpty() && lower.isEmpty() && upper.isEmpty();
  }

  /** A point lookup: every one of the {@code pkSize} pk columns is fixed. */
  public boolean isPoint(int pkSize) {
    return equal.size() == pkSize;
  }

  /** The pk prefix fixed by equalities. */
  public Row equalPrefix() {
    return Row.of(equal.toArray());
  }

  /**
   * Whether {@code pk} (values in pk order) lies in the range, comparing with {@code compare} (SQL
   * order of two non-null values of one column); a null pk value is outside any bound.
   */
  public boolean contains(Row pk, java.util.Comparator<Object> compare) {
    for (int i = 0; i < equal.size(); i++) {
      if (pk.get(i) == null || compare.compare(pk.get(i), equal.get(i)) != 0) {
        return false;
      }
    }
    if (lower.isEmpty() && upper.isEmpty()) {
      return true;
    }
    Object v = pk.get(equal.size());
    if (v == null) {
      return false;
    }
    if (lower.isPresent()) {
      int c = compare.compare(v, lower.get().value());
      if (c < 0 || (c == 0 && !lower.get().inclusive())) {
        return false;
      }
    }
    if (upper.isPresent()) {
      int c = compare.compare(v, upper.get().value());
      return c < 0 || (c == 0 && upper.get().inclusive());
    }
    return true;
  }

  /** The range as EXPLAIN shows it, with the pk columns' names: {@code k = 5}, {@code k > 100}. */
  public String describe(List<String> pkNames) {
    if (isAll()) {
      return "full scan";
    }
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < equal.size(); i++) {
      parts.add(pkNames.get(i) + " = " + literal(equal.get(i)));
    }
    if (lower.isPresent() || upper.isPresent()) {
      String name = pkNames.get(equal.size());
      lower.ifPresent(b -> parts.add(name + (b.inclusive() ? " >= " : " > ") + literal(b.value())));
      upper.ifPresent(b -> parts.add(name + (b.inclusive() ? " <= " : " < ") + literal(b.value())));
    }
    return String.join(" AND ", parts);
  }

  private static String literal(Object v) {
    return v instanceof String s ? "'" + s.replace("'", "''") + "'" : String.valueOf(v);
  }
}

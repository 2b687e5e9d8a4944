package dev.tideway.common.key;

/**
 * The sort order of one key column: direction and NULL placement. The defaults are PostgreSQL's:
 * {@code ASC} sorts NULLs last, {@code DESC} sorts NULLs first (NULL is "larger" than every value).
 */
public record OrderType(boolean descending, boolean nullsFirst) {
  /** {@code ASC NULLS LAST}, PostgreSQL's default for {@code ASC}. */
  public static final OrderType ASC = new OrderType(false, false);

  /** {@code DESC NULLS FIRST}, PostgreSQL's default for {@code DESC}. */
  public static final OrderType DESC = new OrderType(true, true);

  public static final OrderType ASC_NULLS_FIRST = new OrderType(false, true);
  public static final OrderType DESC_NULLS_LAST = new OrderType(true, false);

  /** The PostgreSQL default for a direction: {@link #ASC} or {@link #DESC}. */
  public static OrderType defaultFor(boolean descending) {
    return descending ? DESC : ASC;
  }

  /** The SQL spelling, e.g. {@code DESC NULLS LAST}. */
  @Override
  public String toString() {
    return (descending ? "DESC" : "ASC") + (nullsFirst ? " NULLS FIRST" : " NULLS LAST");
  }
}

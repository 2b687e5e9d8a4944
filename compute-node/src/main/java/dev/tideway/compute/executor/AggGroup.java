package dev.tideway.compute.executor;

import dev.tideway.common.row.Row;

/**
 * The in-memory state of one group of a {@link HashAggExecutor}: the row count, one accumulator per
 * call, and the output row last emitted for the group (what a change must retract).
 *
 * <p>Owned by the aggregation's actor thread. Invariant: {@code rowCount >= 0}, and per call the
 * non-NULL count is {@code >= 0}; a MIN/MAX whose extreme was deleted is {@code stale} until the
 * next barrier rescans its value multiset.
 */
final class AggGroup {
  /** The group key values. */
  final Row key;

  /** Input rows in the group (inserts minus deletes). */
  long rowCount;

  /**
   * Per call: COUNT's count, SUM/AVG's running sum (Long, Double or BigDecimal), MIN/MAX's value.
   */
  final Object[] acc;

  /** Per call: non-NULL inputs counted (SUM, AVG). */
  final long[] nonNull;

  /** Per call: the MIN/MAX value was retracted and must be re-read from the call's state table. */
  final boolean[] stale;

  /** The output row emitted for this group and not yet retracted, or null. */
  Row emitted;

  /** The group's state row exists in the intermediate state table. */
  boolean persisted;

  AggGroup(Row key, int calls) {
    this.key = key;
    this.acc = new Object[calls];
    this.nonNull = new long[calls];
    this.stale = new boolean[calls];
  }
}

package dev.tideway.compute.executor;

import dev.tideway.common.row.Row;
import java.util.HashMap;

/**
 * The in-memory state of one group of a {@link HashAggExecutor}: the row count, one accumulator per
 * call, and the output row last emitted for the group (what a change must retract).
 *
 * <p>Owned by the aggregation's actor thread. Invariant: {@code rowCount >= 0}, and per call the
 * non-NULL count is {@code >= 0}; a MIN/MAX whose extreme was deleted is {@code stale} until the
 * next barrier rescans its value multiset; {@code persisted} equals the intermediate table's row.
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

  /** Changed in the current epoch (listed in the executor's dirty list until the barrier). */
  boolean dirty;

  /** The output row emitted for this group and not yet retracted, or null. */
  Row emitted;

  /** The group's state row as the intermediate state table holds it, or null when it has none. */
  Row persisted;

  /**
   * Per MIN/MAX call: multiplicities of values of the group's multiset this executor read or wrote
   * since the group was cached (a write-through cache: each entry equals the call table's row), or
   * null for other calls. Dropped, least recently used group first, when all groups together hold
   * too many at a barrier.
   */
  final HashMap<Object, long[]>[] valueCounts;

  /** Values held in {@link #valueCounts}. */
  long valueUnits() {
    long n = 0;
    for (HashMap<Object, long[]> m : valueCounts) {
      n += m == null ? 0 : m.size();
    }
    return n;
  }

  void dropValueCounts() {
    java.util.Arrays.fill(valueCounts, null);
  }

  @SuppressWarnings("unchecked")
  AggGroup(Row key, int calls) {
    this.key = key;
    this.acc = new Object[calls];
    this.nonNull = new long[calls];
    this.stale = new boolean[calls];
    this.valueCounts = new HashMap[calls];
  }
}

package dev.tideway.compute.executor;

import dev.tideway.common.row.Row;
import java.util.HashMap;

/**
 * The in-memory state of one group of a {@link HashAggExecutor}: the row count, one accumulator per
 * call, and the output row last emitted for the group (what a change must retract).
 *
 * <p>Owned by the aggregation's actor thread. Invariant: {@code rowCount >= 0}, and per call the
 * non-NULL count is {@code >= 0}; a MIN/MAX whose extreme was deleted is {@code stale} until the
 * next barrier rescans its value multiset; {@code stored} says whether the intermediate table has
 * the group's row.
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

  /** Per call: non-NULL inputs counted (SUM, AVG); null when no call is a SUM or AVG. */
  final long[] nonNull;

  /**
   * Per call: the MIN/MAX value was retracted and must be re-read from the call's state table; null
   * when no call has a call table.
   */
  final boolean[] stale;

  /** Changed in the current epoch (listed in the executor's dirty list until the barrier). */
  boolean dirty;

  /** The output row emitted for this group and not yet retracted, or null. */
  Row emitted;

  /** Whether the intermediate state table holds a row for the group. */
  boolean stored;

  /**
   * Per MIN/MAX call: multiplicities of values of the group's multiset this executor read or wrote
   * since the group was cached (a write-through cache: each entry equals the call table's row), or
   * null for other calls; the array is null when no call has a call table. Dropped, least recently
   * used group first, when all groups together hold too many at a barrier.
   */
  HashMap<Object, long[]>[] valueCounts;

  /** Values held in {@link #valueCounts}. */
  long valueUnits() {
    long n = 0;
    for (int c = 0; valueCounts != null && c < valueCounts.length; c++) {
      n += valueCounts[c] == null ? 0 : valueCounts[c].size();
    }
    return n;
  }

  void dropValueCounts() {
    if (valueCounts != null) {
      java.util.Arrays.fill(valueCounts, null);
    }
  }

  /**
   * A group of {@code calls} calls; {@code sums}: some call is a SUM or AVG; {@code extremes}: some
   * MIN/MAX call has a call table.
   */
  @SuppressWarnings("unchecked")
  AggGroup(Row key, int calls, boolean sums, boolean extremes) {
    this.key = key;
    this.acc = new Object[calls];
    this.nonNull = sums ? new long[calls] : null;
    this.stale = extremes ? new boolean[calls] : null;
    this.valueCounts = extremes ? new HashMap[calls] : null;
  }
}

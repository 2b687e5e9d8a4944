package dev.tideway.storage.api;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Statistics of one table in a version, or a change to them (all fields signed).
 *
 * <ul>
 *   <li>{@code totalKeyCount}: every stored key version, tombstones and stale versions included (as
 *       RisingWave counts it); compaction subtracts what it drops, so after a full compaction it
 *       equals the live keys.
 *   <li>{@code totalKeyBytes}, {@code totalValueBytes}: encoded key bytes (key + 8 for the epoch)
 *       and value bytes of those versions.
 *   <li>{@code liveRowCount}: from the writer's knowledge: insert +1, delete -1, update 0. Exact at
 *       every committed epoch; compaction never changes it.
 * </ul>
 */
public record TableStats(
    long totalKeyCount, long totalKeyBytes, long totalValueBytes, long liveRowCount) {
  public static final TableStats ZERO = new TableStats(0, 0, 0, 0);

  public TableStats plus(TableStats o) {
    return new TableStats(
        totalKeyCount + o.totalKeyCount,
        totalKeyBytes + o.totalKeyBytes,
        totalValueBytes + o.totalValueBytes,
        liveRowCount + o.liveRowCount);
  }

  public TableStats negate() {
    return new TableStats(-totalKeyCount, -totalKeyBytes, -totalValueBytes, -liveRowCount);
  }

  public boolean isZero() {
    return equals(ZERO);
  }

  /** The stats of one stored entry. */
  public static TableStats ofEntry(int keyLen, int valueLen) {
    return new TableStats(1, keyLen + 8L, valueLen, 0);
  }

  /** {@code a + b} per table; tables whose sum is zero are dropped. */
  public static Map<Integer, TableStats> sum(
      Map<Integer, TableStats> a, Map<Integer, TableStats> b) {
    Map<Integer, TableStats> out = new TreeMap<>(a);
    b.forEach((t, s) -> out.merge(t, s, TableStats::plus));
    out.values().removeIf(TableStats::isZero);
    return out;
  }

  /** Adds {@code delta} into a mutable map. */
  public static void addInto(Map<Integer, TableStats> into, int table, TableStats delta) {
    into.merge(table, delta, TableStats::plus);
  }

  public static Map<Integer, TableStats> mutable() {
    return new HashMap<>();
  }
}

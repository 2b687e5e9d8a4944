package dev.tideway.barrier.progress;

import java.util.HashMap;
import java.util.Map;

/**
 * Read access to a committed version's table stats, primitive so the per-commit path does not box.
 * Missing tables count 0 keys and an unknown live-row count.
 */
public interface TableStatsLookup {
  /** Storage key count of {@code tableId}, 0 when unknown. */
  long totalKeyCount(int tableId);

  /** Exact live rows of {@code tableId}, or -1 when unknown. */
  long liveRowCount(int tableId);

  /** A lookup over fixed views. */
  static TableStatsLookup of(Iterable<TableStatsView> views) {
    Map<Integer, TableStatsView> byId = new HashMap<>();
    views.forEach(v -> byId.put(v.tableId(), v));
    return new TableStatsLookup() {
      @Override
      public long totalKeyCount(int tableId) {
        TableStatsView v = byId.get(tableId);
        return v == null ? 0 : v.totalKeyCount();
      }

      @Override
      public long liveRowCount(int tableId) {
        TableStatsView v = byId.get(tableId);
        return v == null || v.liveRowCount() == null ? -1 : v.liveRowCount();
      }
    };
  }

  /** No stats at all. */
  static TableStatsLookup empty() {
    return of(java.util.List.of());
  }
}

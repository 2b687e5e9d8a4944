package dev.tideway.barrier.control;

/**
 * How one sync changed one table's stats: storage keys written (puts, tombstones, versions) and,
 * for tables that count them, live rows (inserts − deletes).
 *
 * @param liveRowsTracked false when the table keeps no live-row count ({@code liveRowDelta} is 0)
 */
public record TableStatsDelta(
    int tableId, long totalKeyCountDelta, long liveRowDelta, boolean liveRowsTracked) {}

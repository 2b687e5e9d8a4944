package dev.tideway.barrier.progress;

/**
 * What progress needs of one upstream table's committed stats: the storage key count (live rows +
 * uncompacted tombstones and stale versions, the RisingWave figure) and, when the table maintains
 * one, the exact live-row count.
 *
 * @param liveRowCount exact live rows, or null when the table keeps no such count
 */
public record TableStatsView(int tableId, long totalKeyCount, Long liveRowCount) {}

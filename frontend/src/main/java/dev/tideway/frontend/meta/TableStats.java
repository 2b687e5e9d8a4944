package dev.tideway.frontend.meta;

/**
 * Storage statistics of one table ({@code rw_catalog.rw_table_stats}).
 *
 * @param tableId the table
 * @param totalKeyCount keys stored (live rows plus not yet compacted deletes)
 * @param liveRows rows visible at the committed epoch
 * @param totalKeySize bytes of keys
 * @param totalValueSize bytes of values
 */
public record TableStats(
    int tableId, long totalKeyCount, long liveRows, long totalKeySize, long totalValueSize) {}

package dev.tideway.storage.api;

import java.util.Arrays;
import java.util.Map;

/**
 * What a version knows about one SST file without opening it: its id (the object is {@link
 * #objectPath(long)}), size and whole-file CRC32C (checked when the file is opened), key and epoch
 * bounds, row counts and the per-table stats of its rows ({@code liveRowCount} is always 0 here:
 * live deltas travel in {@link SyncResult#statsDelta()}).
 */
public record SstInfo(
    long id,
    long fileSize,
    int fileCrc32c,
    byte[] minKey,
    byte[] maxKey,
    long minEpoch,
    long maxEpoch,
    long rowCount,
    long tombstoneCount,
    Map<Integer, TableStats> tableStats) {

  public SstInfo {
    tableStats = Map.copyOf(tableStats);
  }

  /** The object path of SST {@code id}. */
  public static String objectPath(long id) {
    return String.format("sst/%016d.parquet", id);
  }

  /** The SST id of an object path, or -1 if it is not an SST path. */
  public static long idOfPath(String path) {
    if (!path.startsWith("sst/") || !path.endsWith(".parquet")) {
      return -1;
    }
    try {
      return Long.parseLong(path.substring(4, path.length() - 8));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  public String objectPath() {
    return objectPath(id);
  }

  public boolean overlaps(KeyRange range) {
    return range.overlaps(minKey, maxKey);
  }

  public boolean overlaps(SstInfo o) {
    return Keys.compare(minKey, o.maxKey) <= 0 && Keys.compare(o.minKey, maxKey) <= 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SstInfo s
        && id == s.id
        && fileSize == s.fileSize
        && fileCrc32c == s.fileCrc32c
        && Arrays.equals(minKey, s.minKey)
        && Arrays.equals(maxKey, s.maxKey)
        && minEpoch == s.minEpoch
        && maxEpoch == s.maxEpoch
        && rowCount == s.rowCount
        && tombstoneCount == s.tombstoneCount
        && tableStats.equals(s.tableStats);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id);
  }

  @Override
  public String toString() {
    return "Sst#"
        + id
        + "{"
        + rowCount
        + " rows, "
        + fileSize
        + " B, epochs "
        + Epochs.format(minEpoch)
        + ".."
        + Epochs.format(maxEpoch)
        + ", keys "
        + Keys.hex(minKey)
        + ".."
        + Keys.hex(maxKey)
        + "}";
  }
}

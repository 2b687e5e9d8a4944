package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;

/**
 * What {@code sync(epoch)} produced: the SSTs now durable in the object store holding every write
 * sealed at or before {@code epoch} and not synced before, and the per-table stats delta of those
 * writes (key counts and sizes of the SST rows, plus the writers' live-row delta). Hand both to
 * {@code commitEpoch}: nothing is visible to committed reads before that.
 */
public record SyncResult(long epoch, List<SstInfo> ssts, Map<Integer, TableStats> statsDelta) {
  public SyncResult {
    ssts = List.copyOf(ssts);
    statsDelta = Map.copyOf(statsDelta);
  }

  public long rowCount() {
    return ssts.stream().mapToLong(SstInfo::rowCount).sum();
  }
}

package dev.tideway.backfill.core;

import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.storage.api.Keys;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * An in-memory replica of the upstream changes a backfill received that a later snapshot read may
 * still need: per epoch, the latest row (or {@link OverlayCursor#DELETED}) per storage key, only
 * for rows not yet visible downstream (a visible row's key is at or before its vnode's position,
 * which no later read reaches). Merged over an older read it reproduces the upstream table at a
 * newer epoch: arrangement backfill uses it to read "at barrier.prev" over committed data
 * (RisingWave keeps the same data in a replicated state table that is never uploaded), and every
 * upstream-merge backfill uses it to carry an open cursor to the next epoch instead of reopening
 * it.
 *
 * <p>Memory: the recorded changes of the epochs after {@link #dropThrough}'s bound. Confined to the
 * backfill's actor thread.
 */
public final class UpstreamReplica {
  private final UpstreamTable table;
  private final TreeMap<Long, TreeMap<byte[], Row>> epochs = new TreeMap<>();
  private int[] vnodes = new int[0];
  private long entries;

  public UpstreamReplica(UpstreamTable table) {
    this.table = table;
  }

  /** Records the rows of an upstream chunk of {@code epoch} that are not yet visible downstream. */
  public void record(StreamChunk chunk, long epoch, SnapshotScan scan) {
    int n = chunk.size();
    if (vnodes.length < n) {
      vnodes = new int[n];
    }
    table.vnodes(chunk, vnodes);
    TreeMap<byte[], Row> map = null;
    for (int i = 0; i < n; i++) {
      int v = vnodes[i];
      if (!chunk.isVisible(i) || !scan.owns(v) || scan.progress(v).isCompleted()) {
        continue;
      }
      byte[] pk = table.pk(chunk, i);
      if (scan.needsPk(v) && scan.isVisible(v, pk)) {
        continue;
      }
      if (map == null) {
        map = epochs.computeIfAbsent(epoch, e -> new TreeMap<>(Keys.ORDER));
      }
      Row prev =
          map.put(table.key(v, pk), chunk.op(i).isInsert() ? chunk.row(i) : OverlayCursor.DELETED);
      entries += prev == null ? 1 : 0;
    }
  }

  /** Forgets the changes of every epoch at or before {@code epoch}. */
  public void dropThrough(long epoch) {
    var head = epochs.headMap(epoch, true);
    for (TreeMap<byte[], Row> m : head.values()) {
      entries -= m.size();
    }
    head.clear();
  }

  /** Recorded entries over all epochs. */
  public long size() {
    return entries;
  }

  /**
   * The latest value per key in {@code [from, to)} over the epochs in {@code (afterEpoch,
   * maxEpoch]}; {@link OverlayCursor#DELETED} marks deletions.
   */
  public NavigableMap<byte[], Row> view(byte[] from, byte[] to, long afterEpoch, long maxEpoch) {
    TreeMap<byte[], Row> out = new TreeMap<>(Keys.ORDER);
    if (maxEpoch <= afterEpoch) {
      return out;
    }
    for (TreeMap<byte[], Row> m : epochs.subMap(afterEpoch, false, maxEpoch, true).values()) {
      out.putAll(to == null ? m.tailMap(from, true) : m.subMap(from, true, to, false));
    }
    return out;
  }
}

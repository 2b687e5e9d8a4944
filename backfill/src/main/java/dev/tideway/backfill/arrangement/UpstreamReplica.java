package dev.tideway.backfill.arrangement;

import dev.tideway.backfill.core.SnapshotScan;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.storage.api.Keys;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * An in-memory replica of the upstream changes the backfill received in epochs that are not yet
 * committed: per epoch, the latest row (or deletion) per storage key, for the vnodes still being
 * backfilled. Merged over a committed read it reproduces the upstream table at an uncommitted
 * epoch, which is what lets arrangement backfill read "at {@code barrier.prev}" on any node
 * (RisingWave keeps the same data in a replicated state table that is never uploaded).
 *
 * <p>Memory: the changes of the uncommitted epochs only; {@link #dropThrough} forgets an epoch once
 * it is committed. Confined to the backfill's actor thread.
 */
final class UpstreamReplica {
  /** The value recorded for a deleted key (compared by identity). */
  static final Row DELETED = Row.wrap(new Object[0]);

  private final UpstreamTable table;
  private final TreeMap<Long, TreeMap<byte[], Row>> epochs = new TreeMap<>();
  private int[] vnodes = new int[0];

  UpstreamReplica(UpstreamTable table) {
    this.table = table;
  }

  /** Records the visible rows of an upstream chunk of {@code epoch} in unfinished vnodes. */
  void record(StreamChunk chunk, long epoch, SnapshotScan scan) {
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
      if (map == null) {
        map = epochs.computeIfAbsent(epoch, e -> new TreeMap<>(Keys.ORDER));
      }
      byte[] key = table.key(v, table.pk(chunk, i));
      map.put(key, chunk.op(i).isInsert() ? chunk.row(i) : DELETED);
    }
  }

  /** Forgets the changes of every epoch at or before {@code committedEpoch}. */
  void dropThrough(long committedEpoch) {
    epochs.headMap(committedEpoch, true).clear();
  }

  /** Recorded epochs (for tests and metrics). */
  int epochCount() {
    return epochs.size();
  }

  /**
   * The latest recorded value per key in {@code [from, to)} over the epochs at or before {@code
   * maxEpoch}; {@link #DELETED} marks deletions.
   */
  NavigableMap<byte[], Row> view(byte[] from, byte[] to, long maxEpoch) {
    TreeMap<byte[], Row> out = new TreeMap<>(Keys.ORDER);
    for (Map<byte[], Row> m : epochs.headMap(maxEpoch, true).values()) {
      NavigableMap<byte[], Row> nm = (NavigableMap<byte[], Row>) m;
      out.putAll(to == null ? nm.tailMap(from, true) : nm.subMap(from, true, to, false));
    }
    return out;
  }
}

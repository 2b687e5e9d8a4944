package dev.tideway.storage.memtable;

import dev.tideway.common.check.Checks;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The writes of one table in the current epoch of one {@link LocalStore}: the last op per key (a
 * put or a tombstone) and the writer's live-row delta. Confined to the writer's thread.
 */
public final class Memtable {
  /** Per-entry overhead estimate of the tree map (node, boxed arrays). */
  static final int ENTRY_OVERHEAD = 96;

  private final int tableId;
  private final TreeMap<byte[], Entry> map = new TreeMap<>(Keys.ORDER);
  private long bytes;
  private long liveDelta;

  public Memtable(int tableId) {
    this.tableId = tableId;
  }

  /** Records a put or a tombstone at {@code epoch}; {@code liveDelta} is the writer's +1/0/-1. */
  public void write(byte[] key, long epoch, boolean delete, byte[] value, int liveDelta) {
    Checks.checkArgument(
        Keys.tableId(key) == tableId,
        "key of table %s written to the memtable of table %s",
        Keys.tableId(key),
        tableId);
    Entry e = new Entry(key, epoch, delete, delete ? Entry.EMPTY : value);
    Entry old = map.put(key, e);
    bytes +=
        e.key().length
            + e.value().length
            + (old == null ? ENTRY_OVERHEAD : -old.value().length - old.key().length);
    this.liveDelta += liveDelta;
  }

  public Entry get(byte[] key) {
    return map.get(key);
  }

  public boolean isEmpty() {
    return map.isEmpty() && liveDelta == 0;
  }

  public long bytes() {
    return bytes;
  }

  public long liveDelta() {
    return liveDelta;
  }

  /** The entries in {@code range}, in key order (a snapshot). */
  public List<Entry> range(KeyRange range) {
    Map<byte[], Entry> sub;
    if (range.start() == null && range.end() == null) {
      sub = map;
    } else if (range.start() == null) {
      sub = map.headMap(range.end(), false);
    } else if (range.end() == null) {
      sub = map.tailMap(range.start(), true);
    } else {
      sub = map.subMap(range.start(), true, range.end(), false);
    }
    return new ArrayList<>(sub.values());
  }

  /** Freezes the contents into an immutable, sorted batch. */
  public ImmutableMemtable freeze(long epoch) {
    return new ImmutableMemtable(tableId, epoch, new ArrayList<>(map.values()), liveDelta, bytes);
  }
}

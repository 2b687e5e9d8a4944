package dev.tideway.backfill.core;

import dev.tideway.common.row.Row;
import dev.tideway.storage.api.Keys;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A cursor with newer values merged over it, in key order: an overlay entry replaces the base row
 * with the same key, {@link #DELETED} hides it, other entries are inserted. {@link #over} on an
 * overlay cursor folds the newer entries into its remaining overlay (newer wins), so stacking
 * epochs keeps one merge level.
 *
 * <p>Confined to the backfill's actor thread.
 */
public final class OverlayCursor implements SnapshotCursor {
  /** The overlay value of a deleted key (compared by identity). */
  public static final Row DELETED = Row.wrap(new Object[0]);

  private final SnapshotCursor base;
  private boolean baseValid;
  private Iterator<Map.Entry<byte[], Row>> overlay;
  private Map.Entry<byte[], Row> top;
  private byte[] key;
  private Row row;

  private OverlayCursor(SnapshotCursor base, NavigableMap<byte[], Row> entries) {
    this.base = base;
    this.baseValid = base.next(); // the base's current row, if any, was already consumed
    this.overlay = entries.entrySet().iterator();
    this.top = overlay.hasNext() ? overlay.next() : null;
  }

  /** {@code base} (positioned after its last consumed row) with {@code newer} merged over it. */
  public static SnapshotCursor over(SnapshotCursor base, NavigableMap<byte[], Row> newer) {
    if (newer.isEmpty()) {
      return base;
    }
    if (base instanceof OverlayCursor oc) {
      oc.absorb(newer);
      return oc;
    }
    return new OverlayCursor(base, newer);
  }

  private void absorb(NavigableMap<byte[], Row> newer) {
    TreeMap<byte[], Row> merged = new TreeMap<>(Keys.ORDER);
    if (top != null) {
      merged.put(top.getKey(), top.getValue());
    }
    overlay.forEachRemaining(e -> merged.put(e.getKey(), e.getValue()));
    merged.putAll(newer);
    overlay = merged.entrySet().iterator();
    top = overlay.hasNext() ? overlay.next() : null;
  }

  @Override
  public boolean next() {
    while (baseValid || top != null) {
      int cmp = !baseValid ? 1 : top == null ? -1 : Keys.compare(base.key(), top.getKey());
      if (cmp < 0) {
        key = base.key();
        row = base.row();
        baseValid = base.next();
        return true;
      }
      Map.Entry<byte[], Row> e = top;
      top = overlay.hasNext() ? overlay.next() : null;
      if (cmp == 0) {
        baseValid = base.next();
      }
      if (e.getValue() != DELETED) {
        key = e.getKey();
        row = e.getValue();
        return true;
      }
    }
    return false;
  }

  @Override
  public byte[] key() {
    return key;
  }

  @Override
  public Row row() {
    return row;
  }

  @Override
  public void close() {
    base.close();
  }
}

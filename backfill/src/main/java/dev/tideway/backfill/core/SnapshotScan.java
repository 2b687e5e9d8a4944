package dev.tideway.backfill.core;

import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.backfill.state.VnodeProgress;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.storage.api.Keys;
import java.util.Arrays;
import java.util.BitSet;

/**
 * The snapshot side of a backfill: the {@link VnodeProgress} of every owned vnode and the read of
 * the next rows in (vnode, pk) order, which is storage key order. One cursor covers a run of
 * consecutive owned vnodes (a storage range open is costly, so the scan opens as few as it can) and
 * stays open until the run is exhausted or {@link #invalidate()}; a moving snapshot carries it to
 * the next epoch with {@link #extend}. When moving to the next run, the next cursor is opened
 * before the previous one is closed, so a fixed-epoch snapshot keeps its version pinned.
 *
 * <p>Invariant: a row of vnode v is {@link #isVisible visible} downstream exactly when the vnode is
 * completed, or in progress and the row's pk is at or before the vnode's position.
 *
 * <p>Confined to the backfill's actor thread.
 */
public final class SnapshotScan implements AutoCloseable {
  private final UpstreamTable table;
  private final int[] vnodes;
  private final int[] outputColumns;
  private final VnodeProgress[] progress = new VnodeProgress[VirtualNode.COUNT];
  private final BitSet owned = new BitSet();
  private final BitSet dirty = new BitSet();

  /** Index into {@link #vnodes} of the first vnode not completed. */
  private int idx;

  private SnapshotCursor cursor;
  private SnapshotCursor retiring;

  /** Index into {@link #vnodes} of the last vnode of the open cursor's run. */
  private int runEnd;

  private byte[] cursorFrom;
  private byte[] cursorTo;
  private long cursorEpoch;
  private long totalRows;

  public SnapshotScan(UpstreamTable table, int[] vnodes) {
    this.table = table;
    this.vnodes = vnodes.clone();
    this.outputColumns = table.outputColumns();
    Arrays.fill(progress, VnodeProgress.NotStarted.INSTANCE);
    for (int v : vnodes) {
      owned.set(v);
    }
  }

  /** Sets a vnode's state from persisted state (before the first read). */
  public void restore(int vnode, VnodeProgress p) {
    Checks.checkState(owned.get(vnode), "vnode %s restored but not owned", vnode);
    totalRows += p.rows() - progress[vnode].rows();
    progress[vnode] = p;
    idx = 0;
    while (idx < vnodes.length && progress[vnodes[idx]].isCompleted()) {
      idx++;
    }
  }

  public VnodeProgress progress(int vnode) {
    return progress[vnode];
  }

  public boolean owns(int vnode) {
    return owned.get(vnode);
  }

  /** Every owned vnode is completed. */
  public boolean exhausted() {
    return idx == vnodes.length;
  }

  /** Owned vnodes whose snapshot is exhausted. */
  public int vnodesCompleted() {
    int n = 0;
    for (int v : vnodes) {
      if (progress[v].isCompleted()) {
        n++;
      }
    }
    return n;
  }

  public int vnodesOwned() {
    return vnodes.length;
  }

  /** Snapshot rows emitted over all owned vnodes (restored counts included). */
  public long totalRows() {
    return totalRows;
  }

  /** Vnodes whose state changed since the last call (cleared by this call). */
  public int[] takeDirty() {
    int[] d = dirty.stream().toArray();
    dirty.clear();
    return d;
  }

  /** Marks every owned vnode dirty (to rewrite them all, e.g. with a new epoch column value). */
  public void markAllDirty() {
    for (int v : vnodes) {
      if (!(progress[v] instanceof VnodeProgress.NotStarted)) {
        dirty.set(v);
      }
    }
  }

  /** True when upstream row with this vnode and pk is already reflected downstream. */
  public boolean isVisible(int vnode, byte[] pk) {
    VnodeProgress p = progress[vnode];
    if (p instanceof VnodeProgress.InProgress ip) {
      return Arrays.compareUnsigned(pk, ip.pos()) <= 0;
    }
    return p.isCompleted();
  }

  /** True when no row of the vnode is visible yet, or the vnode is completed (no pk needed). */
  public boolean needsPk(int vnode) {
    return progress[vnode] instanceof VnodeProgress.InProgress;
  }

  /**
   * Reads up to {@code max} snapshot rows into {@code out} as inserts of the output columns,
   * advancing the positions; returns the rows read (fewer only when the snapshot is exhausted). One
   * cursor covers a run of consecutive owned vnodes; a vnode is completed when the cursor moves
   * past it.
   */
  public int read(SnapshotReader reader, StreamChunkBuilder out, int max) {
    int n = 0;
    while (n < max && idx < vnodes.length) {
      if (cursor == null) {
        openRun(reader);
      }
      int v = vnodes[idx];
      byte[] lastKey = null;
      int k = 0;
      boolean more;
      while ((more = n + k < max) && cursor.next()) {
        byte[] key = cursor.key();
        int kv = Keys.vnode(key);
        if (kv != v) {
          flush(v, lastKey, k);
          n += k;
          k = 0;
          lastKey = null;
          while (vnodes[idx] < kv) {
            completeCurrent();
          }
          v = kv;
        }
        Row row = cursor.row();
        for (int c = 0; c < outputColumns.length; c++) {
          out.column(c).append(row.get(outputColumns[c]));
        }
        out.appendOp(Op.INSERT);
        lastKey = key;
        k++;
      }
      flush(v, lastKey, k);
      n += k;
      if (more) { // the cursor ran out: the rest of the run is complete
        while (idx <= runEnd) {
          completeCurrent();
        }
        retiring = cursor;
        cursor = null;
      } else if (lastKey != null) {
        cursorFrom = Arrays.copyOf(lastKey, lastKey.length + 1);
      }
    }
    closeRetiring();
    totalRows += n;
    return n;
  }

  private void flush(int v, byte[] lastKey, int k) {
    if (k > 0) {
      progress[v] = progress[v].advance(Keys.pk(lastKey), k);
      dirty.set(v);
      cursorFrom = Arrays.copyOf(lastKey, lastKey.length + 1);
    }
  }

  private void completeCurrent() {
    int v = vnodes[idx];
    progress[v] = progress[v].complete();
    dirty.set(v);
    idx++;
  }

  private void openRun(SnapshotReader reader) {
    runEnd = idx;
    while (runEnd + 1 < vnodes.length && vnodes[runEnd + 1] == vnodes[runEnd] + 1) {
      runEnd++;
    }
    cursorFrom = startKey(vnodes[idx]);
    cursorTo = Keys.prefixEnd(Keys.vnodePrefix(table.tableId(), vnodes[runEnd]));
    cursor = reader.open(cursorFrom, cursorTo);
    cursorEpoch = reader.readEpoch();
    closeRetiring();
  }

  private byte[] startKey(int vnode) {
    VnodeProgress p = progress[vnode];
    if (p instanceof VnodeProgress.InProgress ip) {
      return table.keyAfter(vnode, ip.pos());
    }
    return Keys.vnodePrefix(table.tableId(), vnode);
  }

  /** True while a cursor is open (it reflects {@link #cursorEpoch()}). */
  public boolean hasCursor() {
    return cursor != null;
  }

  /** The epoch whose table the open cursor reflects. */
  public long cursorEpoch() {
    return cursorEpoch;
  }

  /** The first key the open cursor has not returned yet (inclusive). */
  public byte[] cursorFrom() {
    return cursorFrom;
  }

  /** The end of the open cursor's range (exclusive). */
  public byte[] cursorTo() {
    return cursorTo;
  }

  /**
   * Carries the open cursor to {@code epoch}: {@code newer} holds the upstream changes in the
   * cursor's remaining range between {@link #cursorEpoch()} and {@code epoch}.
   */
  public void extend(java.util.NavigableMap<byte[], Row> newer, long epoch) {
    Checks.checkState(cursor != null, "no open cursor to extend");
    cursor = OverlayCursor.over(cursor, newer);
    cursorEpoch = epoch;
  }

  /** Closes the open cursor: the next read reopens at the current position. */
  public void invalidate() {
    closeRetiring();
    if (cursor != null) {
      cursor.close();
      cursor = null;
    }
  }

  private void closeRetiring() {
    if (retiring != null && (cursor != null || idx == vnodes.length)) {
      retiring.close();
      retiring = null;
    }
  }

  @Override
  public void close() {
    invalidate();
    if (retiring != null) {
      retiring.close();
      retiring = null;
    }
  }
}

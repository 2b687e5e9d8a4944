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
 * the next rows in (vnode, pk) order. Vnodes are read one after another in ascending order; a
 * cursor stays open on the current vnode until {@link #invalidate()} (the snapshot moved to a new
 * epoch) or until the vnode is exhausted. When moving to the next vnode, the next cursor is opened
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
   * advancing the positions; returns the rows read (fewer only when the snapshot is exhausted).
   */
  public int read(SnapshotReader reader, StreamChunkBuilder out, int max) {
    int n = 0;
    while (n < max && idx < vnodes.length) {
      int v = vnodes[idx];
      if (cursor == null) {
        cursor = reader.open(v, startKey(v));
        closeRetiring();
      }
      byte[] lastKey = null;
      int k = 0;
      while (n + k < max && cursor.next()) {
        Row row = cursor.row();
        for (int c = 0; c < outputColumns.length; c++) {
          out.column(c).append(row.get(outputColumns[c]));
        }
        out.appendOp(Op.INSERT);
        lastKey = cursor.key();
        k++;
      }
      if (k > 0) {
        progress[v] = progress[v].advance(Keys.pk(lastKey), k);
        dirty.set(v);
      }
      n += k;
      if (n < max) { // the cursor ran out: the vnode is complete
        progress[v] = progress[v].complete();
        dirty.set(v);
        retiring = cursor;
        cursor = null;
        idx++;
      }
    }
    closeRetiring();
    totalRows += n;
    return n;
  }

  private byte[] startKey(int vnode) {
    VnodeProgress p = progress[vnode];
    if (p instanceof VnodeProgress.InProgress ip) {
      return table.keyAfter(vnode, ip.pos());
    }
    return Keys.vnodePrefix(table.tableId(), vnode);
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

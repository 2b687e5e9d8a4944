package dev.tideway.backfill.core;

import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;

/**
 * Hides the rows of a buffered upstream chunk that the snapshot has not reached: a row stays
 * visible only when {@link SnapshotScan#isVisible} says its vnode and pk are already reflected
 * downstream (the next snapshot read covers the others). When only one half of an update pair stays
 * visible, it becomes a plain delete or insert, so the {@code U-}/{@code U+} pairing holds.
 *
 * <p>Stateless apart from scratch arrays; confined to the backfill's actor thread.
 */
public final class ChunkMarker {
  private final UpstreamTable table;
  private int[] vnodes = new int[0];

  public ChunkMarker(UpstreamTable table) {
    this.table = table;
  }

  /** The chunk with unreached rows hidden (full columns), or null when no row stays visible. */
  public StreamChunk mark(StreamChunk chunk, SnapshotScan scan) {
    int n = chunk.size();
    if (vnodes.length < n) {
      vnodes = new int[n];
    }
    table.vnodes(chunk, vnodes);
    boolean[] visible = new boolean[n];
    boolean anyHidden = false;
    int count = 0;
    for (int i = 0; i < n; i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      int v = vnodes[i];
      boolean vis =
          scan.needsPk(v) ? scan.isVisible(v, table.pk(chunk, i)) : scan.isVisible(v, null);
      visible[i] = vis;
      anyHidden |= !vis;
      count += vis ? 1 : 0;
    }
    if (count == 0) {
      return null;
    }
    if (!anyHidden) {
      return chunk;
    }
    byte[] ops = null;
    for (int i = 0; i < n; i++) {
      Op op = chunk.op(i);
      if (op == Op.UPDATE_DELETE && i + 1 < n && visible[i] != visible[i + 1]) {
        ops = ops == null ? opsOf(chunk) : ops;
        if (visible[i]) {
          ops[i] = Op.DELETE.code();
        } else {
          ops[i + 1] = Op.INSERT.code();
        }
      }
    }
    StreamChunk marked = chunk.withVisibility(visible);
    return ops == null ? marked : marked.withOps(ops);
  }

  private static byte[] opsOf(StreamChunk chunk) {
    byte[] ops = new byte[chunk.size()];
    for (int i = 0; i < ops.length; i++) {
      ops[i] = chunk.opCode(i);
    }
    return ops;
  }
}

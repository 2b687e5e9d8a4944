package dev.tideway.backfill.arrangement;

import dev.tideway.backfill.core.SnapshotCursor;
import dev.tideway.backfill.core.SnapshotScan;
import dev.tideway.backfill.core.StoreCursor;
import dev.tideway.backfill.merge.SnapshotSource;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StateStore;
import java.util.Iterator;
import java.util.Map;

/**
 * Arrangement backfill's snapshot at {@code barrier.prev}: a committed read at {@code min(committed
 * epoch, read epoch)} with the {@link UpstreamReplica} of the later, uncommitted epochs merged over
 * it (replica entries win; deletions hide the committed row). Readable once the epoch before the
 * first barrier is committed: the replica holds only changes received after that barrier.
 *
 * <p>Why any committed epoch C between that first epoch and the read epoch E is correct: a key
 * changed in (C, E] takes its latest replica value, which is its value at E; a key not changed
 * there has the same value at C and at E.
 *
 * <p>Confined to the backfill's actor thread.
 */
final class ReplicaSnapshotSource implements SnapshotSource {
  private final StateStore store;
  private final UpstreamTable table;
  private final UpstreamReplica replica;
  private SnapshotScan scan;
  private long firstEpoch;
  private long readEpoch;

  ReplicaSnapshotSource(StateStore store, UpstreamTable table) {
    this.store = store;
    this.table = table;
    this.replica = new UpstreamReplica(table);
  }

  /** The scan whose unfinished vnodes the replica keeps (set before the first barrier). */
  void bind(SnapshotScan scan) {
    this.scan = scan;
  }

  @Override
  public void start(Barrier first) {
    firstEpoch = first.prev();
    readEpoch = first.prev();
  }

  @Override
  public void onUpstreamChunk(StreamChunk chunk, long epoch) {
    replica.record(chunk, epoch, scan);
  }

  @Override
  public void onBarrier(Barrier b) {
    readEpoch = b.prev();
    replica.dropThrough(Math.min(store.committedEpoch(), readEpoch));
  }

  @Override
  public long readEpoch() {
    return readEpoch;
  }

  @Override
  public boolean readable() {
    return store.committedEpoch() >= firstEpoch;
  }

  @Override
  public SnapshotCursor open(int vnode, byte[] startKey) {
    long committed = Math.min(store.committedEpoch(), readEpoch);
    replica.dropThrough(committed);
    byte[] end = Keys.prefixEnd(Keys.vnodePrefix(table.tableId(), vnode));
    StateIterator it = store.iter(KeyRange.of(startKey, end), committed);
    Map<byte[], Row> overlay = replica.view(startKey, end, readEpoch);
    StoreCursor base = new StoreCursor(it, table);
    return overlay.isEmpty() ? base : new OverlayCursor(base, overlay.entrySet().iterator());
  }

  @Override
  public void close() {}

  /** A committed cursor with replica entries merged over it, in key order. */
  private static final class OverlayCursor implements SnapshotCursor {
    private final StoreCursor base;
    private final Iterator<Map.Entry<byte[], Row>> overlay;
    private boolean baseValid;
    private Map.Entry<byte[], Row> top;
    private byte[] key;
    private Row row;

    OverlayCursor(StoreCursor base, Iterator<Map.Entry<byte[], Row>> overlay) {
      this.base = base;
      this.overlay = overlay;
      this.baseValid = base.next();
      this.top = overlay.hasNext() ? overlay.next() : null;
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
        if (e.getValue() != UpstreamReplica.DELETED) {
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
}

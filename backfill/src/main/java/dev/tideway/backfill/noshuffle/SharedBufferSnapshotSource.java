package dev.tideway.backfill.noshuffle;

import dev.tideway.backfill.core.SnapshotCursor;
import dev.tideway.backfill.core.StoreCursor;
import dev.tideway.backfill.merge.SnapshotSource;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StateStore;

/**
 * No-shuffle backfill's snapshot at {@code barrier.prev}: the node's uncommitted shared buffer
 * merged with the committed version, read through a {@link LocalStateStore} of the upstream table
 * that is never written and whose epoch is kept at the read epoch (a local store's reads see the
 * node's shared buffer and the committed version up to its epoch). Works because the backfill is
 * co-located with its upstream actor: when a barrier reaches the backfill, that actor has already
 * sealed the barrier's {@code prev} into this node's shared buffer.
 *
 * <p>Confined to the backfill's actor thread.
 */
final class SharedBufferSnapshotSource implements SnapshotSource {
  private final UpstreamTable table;
  private final LocalStateStore reader;
  private long readEpoch;

  SharedBufferSnapshotSource(StateStore store, UpstreamTable table) {
    this.table = table;
    this.reader = store.newLocal(table.tableId());
  }

  @Override
  public void start(Barrier first) {
    readEpoch = first.prev();
    reader.init(readEpoch);
  }

  @Override
  public void onBarrier(Barrier b) {
    readEpoch = b.prev();
    reader.sealCurrentEpoch(readEpoch); // nothing was written: only moves the read epoch
  }

  @Override
  public long readEpoch() {
    return readEpoch;
  }

  @Override
  public boolean readable() {
    return true;
  }

  @Override
  public SnapshotCursor open(byte[] startKey, byte[] endKey) {
    return new StoreCursor(reader.iter(KeyRange.of(startKey, endKey)), table);
  }

  @Override
  public void close() {
    reader.close();
  }
}

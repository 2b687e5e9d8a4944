package dev.tideway.backfill.arrangement;

import dev.tideway.backfill.core.OverlayCursor;
import dev.tideway.backfill.core.SnapshotCursor;
import dev.tideway.backfill.core.StoreCursor;
import dev.tideway.backfill.core.UpstreamReplica;
import dev.tideway.backfill.merge.SnapshotSource;
import dev.tideway.backfill.state.UpstreamTable;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.StateStore;

/**
 * Arrangement backfill's snapshot at {@code barrier.prev}: a committed read at {@code min(committed
 * epoch, read epoch)} with the {@link UpstreamReplica} of the later epochs merged over it (replica
 * entries win; deletions hide the committed row). Readable once the epoch before the first barrier
 * is committed: the replica holds only changes received after that barrier.
 *
 * <p>Why any committed epoch C between that first epoch and the read epoch E is correct: a key
 * changed in (C, E] takes its latest replica value, which is its value at E; a key not changed
 * there has the same value at C and at E. The merge loop drops replica epochs only once they are
 * committed (and no open cursor needs them).
 *
 * <p>Confined to the backfill's actor thread.
 */
final class ReplicaSnapshotSource implements SnapshotSource {
  private final StateStore store;
  private final UpstreamTable table;
  private UpstreamReplica replica;
  private long firstEpoch;
  private long readEpoch;

  ReplicaSnapshotSource(StateStore store, UpstreamTable table) {
    this.store = store;
    this.table = table;
  }

  @Override
  public void bindReplica(UpstreamReplica replica) {
    this.replica = replica;
  }

  @Override
  public void start(Barrier first) {
    firstEpoch = first.prev();
    readEpoch = first.prev();
  }

  @Override
  public void onBarrier(Barrier b) {
    readEpoch = b.prev();
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
  public SnapshotCursor open(byte[] startKey, byte[] endKey) {
    long committed = Math.min(store.committedEpoch(), readEpoch);
    SnapshotCursor base =
        new StoreCursor(store.iter(KeyRange.of(startKey, endKey), committed), table);
    return OverlayCursor.over(base, replica.view(startKey, endKey, -1, readEpoch));
  }

  @Override
  public void close() {}
}

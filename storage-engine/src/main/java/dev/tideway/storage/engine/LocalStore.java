package dev.tideway.storage.engine;

import dev.tideway.common.check.Checks;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.iterator.ArrayEntryIterator;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.memtable.Memtable;

/**
 * {@link LocalStateStore} of one table and one writer. Writes go to a {@link Memtable} for the
 * current epoch; when it outgrows {@code memtableBytes} it moves to the shared buffer and writes
 * continue at the next sub-epoch (so memory stays bounded inside one long epoch). Confined to the
 * writer's thread.
 */
final class LocalStore implements LocalStateStore {
  private final StorageEngine engine;
  private final int tableId;
  private final long memtableBytes;
  private Memtable mem;
  private long epoch = -1;

  /** The shared buffer's clear count at {@link #init}: this writer's generation. */
  private long clears;

  private boolean closed;

  LocalStore(StorageEngine engine, int tableId, long memtableBytes) {
    this.engine = engine;
    this.tableId = tableId;
    this.memtableBytes = memtableBytes;
    this.mem = new Memtable(tableId);
  }

  @Override
  public int tableId() {
    return tableId;
  }

  @Override
  public void init(long epoch) {
    Checks.checkState(this.epoch < 0, "table %s: init(%s) twice", tableId, epoch);
    Checks.checkArgument(Epochs.base(epoch) == epoch, "init epoch %s has sub-epoch bits", epoch);
    this.epoch = epoch;
    this.clears = engine.sharedBuffer().clears();
  }

  @Override
  public long epoch() {
    return epoch;
  }

  private void checkWritable(byte[] key) {
    if (closed) {
      throw new StorageException(
          StorageException.Reason.CLOSED, "local store of table " + tableId + " is closed");
    }
    if (epoch < 0) {
      Checks.checkState(false, "table %s: write before init", tableId);
    }
    if (key.length < Keys.PREFIX_LEN || Keys.tableId(key) != tableId) {
      // behind an if: the message hex-formats the key, far too costly for every write
      Checks.checkArgument(false, "key %s is not a key of table %s", Keys.hex(key), tableId);
    }
  }

  @Override
  public void insert(byte[] key, byte[] value) {
    write(key, false, value, +1);
  }

  @Override
  public void delete(byte[] key, byte[] oldValue) {
    write(key, true, null, -1);
  }

  @Override
  public void update(byte[] key, byte[] oldValue, byte[] newValue) {
    write(key, false, newValue, 0);
  }

  private void write(byte[] key, boolean delete, byte[] value, int liveDelta) {
    checkWritable(key);
    mem.write(key, epoch, delete, value, liveDelta);
    if (mem.bytes() >= memtableBytes) {
      Checks.checkState(
          (epoch & Epochs.SUB_EPOCH_MASK) < Epochs.SUB_EPOCH_MASK,
          "table %s: epoch %s ran out of sub-epochs",
          tableId,
          Epochs.format(epoch));
      engine.sharedBuffer().add(mem.freeze(epoch), clears);
      mem = new Memtable(tableId);
      epoch++;
    }
  }

  @Override
  public byte[] get(byte[] key) {
    Entry e = mem.get(key);
    if (e == null) {
      e = engine.getUncommitted(key, Epochs.visibleUpTo(epoch));
    }
    return e == null || e.delete() ? null : e.value();
  }

  @Override
  public StateIterator iter(KeyRange range) {
    return engine.iterUncommitted(
        range, Epochs.visibleUpTo(epoch), new ArrayEntryIterator(mem.range(range)));
  }

  @Override
  public void sealCurrentEpoch(long nextEpoch) {
    Checks.checkState(epoch >= 0, "table %s: seal before init", tableId);
    Checks.checkArgument(
        nextEpoch > Epochs.visibleUpTo(epoch) && Epochs.base(nextEpoch) == nextEpoch,
        "table %s: next epoch %s not after %s",
        tableId,
        Epochs.format(nextEpoch),
        Epochs.format(epoch));
    if (!mem.isEmpty()) {
      engine.sharedBuffer().add(mem.freeze(epoch), clears);
      mem = new Memtable(tableId);
    }
    epoch = nextEpoch;
    engine.awaitSyncRoom(() -> engine.sharedBuffer().clears() != clears);
  }

  @Override
  public void close() {
    closed = true;
  }
}

package dev.tideway.storage.table;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StateStore;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The typed state of one executor: rows of a table keyed by their pk, stored under {@code table_id
 * | vnode(pk) | memcomparable(pk)} with the whole row as value. Writes go to a {@link
 * LocalStateStore}; {@link #commit(long)} seals the epoch at each barrier. Reads see this writer's
 * uncommitted writes. {@link #insert}/{@link #delete}/{@link #update} tell storage the live-row
 * delta (+1/-1/0), which makes the table's {@code liveRowCount} exact.
 *
 * <p>Confined to the executor's thread.
 */
public final class StateTable implements AutoCloseable {
  private final int tableId;
  private final int[] pkIndices;
  private final RowCodecs codecs;
  private final LocalStateStore local;

  private StateTable(int tableId, int[] pkIndices, RowCodecs codecs, LocalStateStore local) {
    this.tableId = tableId;
    this.pkIndices = pkIndices.clone();
    this.codecs = codecs;
    this.local = local;
  }

  /** A state table over {@code store}; call {@link #init(long)} before writing. */
  public static StateTable open(StateStore store, int tableId, int[] pkIndices, RowCodecs codecs) {
    return new StateTable(tableId, pkIndices, codecs, store.newLocal(tableId));
  }

  public int tableId() {
    return tableId;
  }

  public void init(long epoch) {
    local.init(epoch);
  }

  /** The epoch writes go to. */
  public long epoch() {
    return local.epoch();
  }

  public Row pkOf(Row row) {
    return row.project(pkIndices);
  }

  /** The storage key of a pk. */
  public byte[] keyOf(Row pk) {
    return Keys.key(tableId, codecs.vnode().vnode(pk), codecs.pk().encode(pk));
  }

  public void insert(Row row) {
    local.insert(keyOf(pkOf(row)), codecs.value().encode(row));
  }

  /** {@link #insert} of a row whose storage key the caller already encoded ({@link #keyOf}). */
  public void insertAt(byte[] key, Row row) {
    local.insert(key, codecs.value().encode(row));
  }

  /** {@link #update} of the row under a storage key the caller already encoded. */
  public void updateAt(byte[] key, Row row) {
    local.update(key, null, codecs.value().encode(row));
  }

  /** {@link #get} by a storage key the caller already encoded. */
  public Row getAt(byte[] key) {
    byte[] v = local.get(key);
    return v == null ? null : codecs.value().decode(v);
  }

  /** {@link #delete} of the row under a storage key the caller already encoded. */
  public void deleteAt(byte[] key) {
    local.delete(key, null);
  }

  /** Deletes the row with {@code row}'s pk (only the pk is read). */
  public void delete(Row row) {
    local.delete(keyOf(pkOf(row)), null); // the store keeps no old values: nothing to encode
  }

  /** Replaces {@code oldRow} by {@code newRow}; a changed pk is a delete plus an insert. */
  public void update(Row oldRow, Row newRow) {
    Row oldPk = pkOf(oldRow);
    Row newPk = pkOf(newRow);
    if (!oldPk.equals(newPk)) {
      delete(oldRow);
      insert(newRow);
      return;
    }
    local.update(keyOf(newPk), null, codecs.value().encode(newRow)); // old value: as in delete
  }

  /** The row with this pk, or null. */
  public Row get(Row pk) {
    byte[] v = local.get(keyOf(pk));
    return v == null ? null : codecs.value().decode(v);
  }

  /** Rows of one vnode whose pk starts with {@code pkPrefix} (all rows of the vnode if empty). */
  public CloseableRows iter(int vnode, Row pkPrefix) {
    byte[] prefix = Keys.key(tableId, vnode, codecs.pk().encode(pkPrefix));
    return new CloseableRows(local.iter(KeyRange.prefix(prefix)), codecs);
  }

  /** Rows of one vnode with pk in {@code [startPk, endPk)}; a null bound is open. */
  public CloseableRows iterRange(int vnode, Row startPk, Row endPk) {
    byte[] lo =
        startPk == null
            ? Keys.vnodePrefix(tableId, vnode)
            : Keys.key(tableId, vnode, codecs.pk().encode(startPk));
    byte[] hi =
        endPk == null
            ? Keys.prefixEnd(Keys.vnodePrefix(tableId, vnode))
            : Keys.key(tableId, vnode, codecs.pk().encode(endPk));
    return new CloseableRows(local.iter(KeyRange.of(lo, hi)), codecs);
  }

  /**
   * Rows whose storage key ({@link #keyOf}) lies in {@code [lo, hi)}: a range of one vnode given by
   * keys this table encoded, as a pk prefix's key and its {@link Keys#prefixEnd}. {@link
   * CloseableRows#key()} gives each row's key.
   */
  public CloseableRows iterKeys(byte[] lo, byte[] hi) {
    return new CloseableRows(local.iter(KeyRange.of(lo, hi)), codecs);
  }

  /** Every row of every vnode. */
  public CloseableRows iterAll() {
    return new CloseableRows(local.iter(KeyRange.table(tableId)), codecs);
  }

  /**
   * Seals the current epoch at a barrier {@code {curr: nextEpoch, prev: epoch()}}: its writes go to
   * the shared buffer and later writes belong to {@code nextEpoch}.
   */
  public void commit(long nextEpoch) {
    local.sealCurrentEpoch(nextEpoch);
  }

  /** Same as {@link #commit(long)}, checking that {@code prevEpoch} is the epoch being sealed. */
  public void commit(long currEpoch, long prevEpoch) {
    Checks.checkState(
        dev.tideway.storage.api.Epochs.base(local.epoch()) == prevEpoch,
        "table %s: barrier prev %s but writing epoch %s",
        tableId,
        prevEpoch,
        local.epoch());
    commit(currEpoch);
  }

  /** Committed rows of a table at {@code epoch} (batch reads), all vnodes. */
  public static CloseableRows readCommitted(
      StateStore store, int tableId, RowCodecs codecs, long epoch) {
    return new CloseableRows(store.iter(KeyRange.table(tableId), epoch), codecs);
  }

  @Override
  public void close() {
    local.close();
  }

  /** Decoded rows of a storage iterator; close it. */
  public static final class CloseableRows implements Iterator<Row>, AutoCloseable {
    private final StateIterator it;
    private final RowCodecs codecs;
    private Row next;
    private byte[] nextKey;
    private byte[] key;

    CloseableRows(StateIterator it, RowCodecs codecs) {
      this.it = it;
      this.codecs = codecs;
    }

    @Override
    public boolean hasNext() {
      if (next == null && it.next()) {
        next = codecs.value().decode(it.value());
        nextKey = it.key();
      }
      return next != null;
    }

    @Override
    public Row next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Row r = next;
      key = nextKey;
      next = null;
      return r;
    }

    /** The storage key of the row {@link #next()} returned last. */
    public byte[] key() {
      return key;
    }

    @Override
    public void close() {
      it.close();
    }
  }
}

package dev.tideway.compute.executor;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.common.vnode.VnodeHasher;

/**
 * Assigns the hidden {@code _row_id} of a table without a primary key, as RisingWave's row id
 * generator does: {@code id = (ms << 22) | (actorId mod 1024) << 12 | seq}, where {@code ms} is the
 * physical milliseconds of the epoch the row is written in (never going back) and {@code seq}
 * counts ids within that millisecond; after 4096 ids {@code ms} moves one ahead.
 *
 * <p>The row's vnode is a function of its {@code _row_id} (the table's distribution key), and the
 * row must land on the actor that owns that vnode, so a candidate id whose vnode this actor does
 * not own is skipped (the expected number of candidates per row is {@code 256 / owned vnodes}).
 * That also makes ids unique across actors: two actors of one table own disjoint vnodes, so they
 * never keep the same id.
 *
 * <p>Recovery: after a restart the actor's ids start from the epoch of the first barrier it sees,
 * which lies above every committed epoch, so they differ from every committed id as long as no
 * actor wrote more than 4096 ids per millisecond of an epoch (4 M rows per second with 1 s epochs),
 * which would push {@code ms} past the next epoch.
 *
 * <p>Confined to the actor thread.
 */
public final class DmlRowIds {
  private static final int SEQ_BITS = 12;
  private static final int ACTOR_BITS = 10;
  private static final long SEQ_MAX = (1L << SEQ_BITS) - 1;

  private final int actorId;
  private final int rowIdIndex;
  private final VnodeHasher hasher;
  private final VnodeBitmap vnodes;
  private long ms = -1;
  private long seq;

  /**
   * @param rowIdIndex the {@code _row_id} column
   * @param hasher the table's vnode function (over its distribution key, which includes the id)
   * @param vnodes the vnodes this actor owns (not empty)
   */
  public DmlRowIds(int actorId, int rowIdIndex, VnodeHasher hasher, VnodeBitmap vnodes) {
    Checks.checkArgument(!vnodes.isEmpty(), "actor %s: row ids need owned vnodes", actorId);
    this.actorId = actorId;
    this.rowIdIndex = rowIdIndex;
    this.hasher = hasher;
    this.vnodes = vnodes;
  }

  /** Ids from now on belong to {@code epoch} (called with every barrier's {@code curr}). */
  public void enterEpoch(long epoch) {
    long physical = Epoch.physicalMs(epoch);
    if (physical > ms) {
      ms = physical;
      seq = 0;
    } // else: this millisecond (or a later borrowed one) is in use: keep counting
  }

  /** {@code row} with a fresh id in the {@code _row_id} column (which must be null). */
  public Row assign(Row row) {
    Checks.checkState(ms >= 0, "actor %s: a row id is needed before the first barrier", actorId);
    Object[] values = row.toList().toArray();
    while (true) {
      long id = (ms << (SEQ_BITS + ACTOR_BITS)) | ((actorId & 0x3FFL) << SEQ_BITS) | seq;
      if (seq == SEQ_MAX) {
        ms++;
        seq = 0;
      } else {
        seq++;
      }
      values[rowIdIndex] = id;
      Row candidate = Row.wrap(values);
      if (vnodes.contains(hasher.vnode(candidate))) {
        return candidate;
      }
    }
  }
}

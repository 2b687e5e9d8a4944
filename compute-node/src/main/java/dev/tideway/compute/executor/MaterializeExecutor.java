package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.Schema;
import dev.tideway.storage.table.StateTable;

/**
 * Writes its input into the table of a materialized view (or a table) by primary key and emits the
 * change it actually made, so everything downstream (the next view, a backfill reading this table's
 * stream) sees a consistent change stream whatever its input was. This is RisingWave's overwrite
 * conflict behaviour, and it matters because DML is planned against the committed epoch: an {@code
 * UPDATE} issued right after a {@code DELETE} may carry a stale old row, or the old row of a key
 * that no longer exists.
 *
 * <ul>
 *   <li>An insert of a pk that exists overwrites the row and is emitted as {@code U-}(stored row)
 *       {@code U+}(new row); an insert equal to the stored row changes nothing and emits nothing.
 *   <li>A delete emits {@code -}(stored row); a delete of a pk that does not exist emits nothing.
 *   <li>An update pair on one pk emits {@code U-}(stored row) {@code U+}(new row), or {@code +}(new
 *       row) when the key was absent. A pair whose halves differ in pk is a delete and an insert.
 * </ul>
 *
 * <p>A chunk that needs no correction (the usual case) is passed on as it is, without a copy. Each
 * write tells storage its live-row delta (+1 insert, -1 delete, 0 update), which is what makes
 * {@code TableStats.liveRowCount} exact; {@link #liveRowCountDelta()} counts the same for the epoch
 * being written.
 *
 * <p>On each barrier the table's epoch is sealed ({@code commit(curr, prev)}); on the first, it
 * starts at {@code curr}. Confined to the actor thread.
 */
public final class MaterializeExecutor implements Executor {
  private final ExecutorInfo info;
  private final Executor input;
  private final StateTable table;
  private boolean started;

  /** Live rows added minus rows removed in the current epoch. */
  private long liveRowCountDelta;

  /** Live-row delta of the epoch the last barrier sealed. */
  private long lastEpochDelta;

  public MaterializeExecutor(ExecutorInfo info, Executor input, StateTable table) {
    this.info = info;
    this.input = input;
    this.table = table;
  }

  @Override
  public Schema schema() {
    return input.schema();
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  /** The live-row delta written so far in the current epoch. */
  public long liveRowCountDelta() {
    return liveRowCountDelta;
  }

  /** The live-row delta of the epoch sealed by the last barrier. */
  public long lastEpochLiveRowCountDelta() {
    return lastEpochDelta;
  }

  @Override
  public Message next() {
    while (true) {
      Message m = input.next();
      if (m instanceof Message.Chunk c) {
        Checks.checkState(started, "%s: chunk before the first barrier", info);
        StreamChunk out = write(c.chunk());
        if (out.cardinality() > 0) {
          return out == c.chunk() ? m : Message.of(out);
        }
        continue;
      }
      if (m instanceof Barrier b) {
        if (!started || b.kind() == BarrierKind.INITIAL) {
          table.init(b.curr());
          started = true;
        } else {
          table.commit(b.curr(), b.prev());
        }
        lastEpochDelta = liveRowCountDelta;
        liveRowCountDelta = 0;
      }
      return m;
    }
  }

  /**
   * Applies the chunk to the table and returns the change made: the chunk itself when every visible
   * row was applied exactly as written, else a corrected chunk.
   */
  private StreamChunk write(StreamChunk chunk) {
    int n = chunk.size();
    Corrections fix = new Corrections(chunk);
    for (int i = 0; i < n; i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      Op op = chunk.op(i);
      Row row = chunk.row(i);
      if (op == Op.UPDATE_DELETE && i + 1 < n && chunk.isVisible(i + 1)) {
        Row next = chunk.row(i + 1);
        Row pk = table.pkOf(row);
        if (chunk.op(i + 1) == Op.UPDATE_INSERT && table.pkOf(next).equals(pk)) {
          updatePair(fix, i, row, next, table.get(pk));
          i++;
          continue;
        }
      }
      if (op.isInsert()) {
        upsert(fix, i, op, row);
      } else {
        remove(fix, i, op, row);
      }
    }
    return fix.result();
  }

  private void updatePair(Corrections fix, int i, Row oldRow, Row newRow, Row stored) {
    if (stored == null) {
      table.insert(newRow);
      liveRowCountDelta++;
      fix.drop(i);
      fix.replace(i + 1, Op.INSERT, newRow);
    } else if (stored.equals(newRow)) {
      fix.drop(i);
      fix.drop(i + 1);
    } else {
      table.update(stored, newRow);
      if (!stored.equals(oldRow)) {
        fix.replace(i, Op.UPDATE_DELETE, stored);
      }
    }
  }

  private void upsert(Corrections fix, int i, Op op, Row row) {
    Row stored = table.get(table.pkOf(row));
    if (stored == null) {
      table.insert(row);
      liveRowCountDelta++;
      if (op != Op.INSERT) {
        fix.replace(i, Op.INSERT, row);
      }
    } else if (stored.equals(row)) {
      fix.drop(i);
    } else {
      table.update(stored, row);
      fix.replace(i, Op.UPDATE_DELETE, stored, Op.UPDATE_INSERT, row);
    }
  }

  private void remove(Corrections fix, int i, Op op, Row row) {
    Row stored = table.get(table.pkOf(row));
    if (stored == null) {
      fix.drop(i);
      return;
    }
    table.delete(stored);
    liveRowCountDelta--;
    if (op != Op.DELETE || !stored.equals(row)) {
      fix.replace(i, Op.DELETE, stored);
    }
  }
}

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
 * Writes its input into the table of a materialized view (or a table) by primary key and passes the
 * input on unchanged. An insert of a pk that exists overwrites the row (an upsert, as RisingWave's
 * default conflict behaviour); a delete of a pk that does not exist is ignored, since nothing is
 * there to remove. Each write tells storage its live-row delta (+1 insert, -1 delete, 0 update),
 * which is what makes {@code TableStats.liveRowCount} exact; {@link #liveRowCountDelta()} counts
 * the same for the epoch being written.
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
    Message m = input.next();
    if (m instanceof Message.Chunk c) {
      Checks.checkState(started, "%s: chunk before the first barrier", info);
      write(c.chunk());
    } else if (m instanceof Barrier b) {
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

  private void write(StreamChunk chunk) {
    int n = chunk.size();
    for (int i = 0; i < n; i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      Op op = chunk.op(i);
      Row row = chunk.row(i);
      if (op == Op.UPDATE_DELETE && i + 1 < n && chunk.isVisible(i + 1)) {
        Row next = chunk.row(i + 1);
        Row old = table.get(table.pkOf(row));
        if (old != null && table.pkOf(next).equals(table.pkOf(row))) {
          table.update(old, next);
          i++;
          continue;
        }
      }
      if (op.isInsert()) {
        upsert(row);
      } else {
        remove(row);
      }
    }
  }

  private void upsert(Row row) {
    Row old = table.get(table.pkOf(row));
    if (old == null) {
      table.insert(row);
      liveRowCountDelta++;
    } else {
      table.update(old, row);
    }
  }

  private void remove(Row row) {
    Row old = table.get(table.pkOf(row));
    if (old != null) {
      table.delete(old);
      liveRowCountDelta--;
    }
  }
}

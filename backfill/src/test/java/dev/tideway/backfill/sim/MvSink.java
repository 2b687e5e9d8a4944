package dev.tideway.backfill.sim;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A materialize-like sink keyed by the pk (output column {@code pkColumn}). Changes are staged per
 * epoch and applied on commit, strictly: an insert of a present pk or a delete of an absent or
 * different row fails (a duplicated or lost row). Recovery drops the staged epochs.
 */
public final class MvSink {
  private record Change(long epoch, Op op, Row row) {}

  private final int pkColumn;
  private final TreeMap<Long, Row> committed = new TreeMap<>();
  private final List<Change> staged = new ArrayList<>();
  private long snapshotRowsSeen;

  public MvSink(int pkColumn) {
    this.pkColumn = pkColumn;
  }

  /** A message emitted in {@code epoch} (the {@code curr} of the barrier before it). */
  public void onMessage(Message m, long epoch) {
    if (m instanceof Message.Chunk c) {
      StreamChunk chunk = c.chunk();
      for (StreamChunk.OpRow r : chunk.visibleRows()) {
        staged.add(new Change(epoch, r.op(), r.row()));
      }
    }
  }

  public void commit(long e) {
    List<Change> keep = new ArrayList<>();
    for (Change c : staged) {
      if (c.epoch() > e) {
        keep.add(c);
        continue;
      }
      long pk = (Long) c.row().get(pkColumn);
      if (c.op().isInsert()) {
        Row prev = committed.put(pk, c.row());
        if (prev != null) {
          throw new AssertionError("epoch " + c.epoch() + ": insert of present pk " + c.row());
        }
      } else {
        Row prev = committed.remove(pk);
        if (!c.row().equals(prev)) {
          throw new AssertionError(
              "epoch " + c.epoch() + ": delete of " + c.row() + " but the MV held " + prev);
        }
      }
    }
    staged.clear();
    staged.addAll(keep);
  }

  public void dropUncommitted() {
    staged.clear();
  }

  public TreeMap<Long, Row> committed() {
    return committed;
  }

  public long snapshotRowsSeen() {
    return snapshotRowsSeen;
  }
}

package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.Schema;
import java.util.List;

/**
 * Emits a fixed list of rows as inserts right after the first barrier, then only forwards the
 * barriers of its barrier input ({@code CREATE MATERIALIZED VIEW ... AS VALUES}, tests).
 *
 * <p>State machine: waiting for the first barrier, then rows pending (emitted with the next pull),
 * then forwarding. Confined to the actor thread.
 */
public final class ValuesExecutor implements Executor {
  private final ExecutorInfo info;
  private final Executor barriers;
  private final Schema schema;
  private List<Row> pending;
  private boolean started;

  public ValuesExecutor(ExecutorInfo info, Executor barriers, Schema schema, List<Row> rows) {
    this.info = info;
    this.barriers = barriers;
    this.schema = schema;
    for (Row r : rows) {
      Checks.checkArgument(
          r.size() == schema.size(), "%s: row %s does not fit %s", info, r, schema.types());
    }
    this.pending = List.copyOf(rows);
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    if (started && pending != null) {
      StreamChunkBuilder b = new StreamChunkBuilder(schema.types(), pending.size());
      for (Row r : pending) {
        b.append(Op.INSERT, r);
      }
      pending = null;
      if (b.size() > 0) {
        return Message.of(b.build());
      }
    }
    Message m = barriers.next();
    if (m instanceof Barrier) {
      started = true;
    } else {
      Checks.checkState(
          m == null || started, "%s: first message must be a barrier, got %s", info, m);
    }
    return m;
  }
}

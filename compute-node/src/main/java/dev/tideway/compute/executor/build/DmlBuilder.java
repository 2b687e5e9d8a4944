package dev.tideway.compute.executor.build;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilder;
import dev.tideway.compute.executor.DmlChannel;
import dev.tideway.compute.executor.DmlChannels;
import dev.tideway.compute.executor.DmlExecutor;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Builds a table's {@code Dml} leaf: a {@link DmlExecutor} on the actor's barrier inbox with a new
 * {@link DmlChannel} registered in the node's {@link DmlChannels} (the inbox rings the channel's
 * doorbell on every barrier). The table's distribution key comes from the {@code Materialize} of
 * the same table in the actor's plan (a table job is {@code Dml → Materialize(table)}); a column
 * named {@value #ROW_ID} of type BIGINT is the hidden key of a table without a primary key, filled
 * for inserts that leave it NULL. Stateless and thread-safe.
 */
public final class DmlBuilder implements ExecutorBuilder {
  /** The hidden key column of a table declared without a primary key. */
  public static final String ROW_ID = "_row_id";

  /** Rows per chunk a DML actor emits at most. */
  public static final int CHUNK_SIZE = 1024;

  @Override
  public Set<Class<? extends StreamNode>> nodeKinds() {
    return Set.of(StreamNode.Dml.class);
  }

  @Override
  public Executor build(ExecutorBuildContext ctx, StreamPlanNode node, List<Executor> inputs) {
    StreamNode.Dml dml = (StreamNode.Dml) node.node();
    TableDesc table =
        tableOf(ctx.plan(), dml.tableId())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "actor "
                            + ctx.actorId()
                            + ": Dml of table "
                            + dml.tableId()
                            + " has no Materialize of that table in its fragment"));
    Schema schema = node.outputSchema();
    Checks.checkArgument(
        schema.types().equals(table.types()),
        "actor %s: Dml of table %s has types %s, the table %s",
        ctx.actorId(),
        dml.tableId(),
        schema.types(),
        table.types());
    int rowId = rowIdIndex(schema);
    int[] distKey = table.distributionKey().stream().mapToInt(Integer::intValue).toArray();
    VnodeBitmap vnodes = VnodeBitmap.of(ctx.vnodes().stream().toArray());
    DmlChannel channel = new DmlChannel(dml.tableId(), schema.types());
    BarrierInbox inbox = ctx.barrierInbox();
    inbox.onPush(channel::ring);
    ctx.dmlChannels()
        .register(
            new DmlChannels.Target(
                ctx.actorId(), dml.tableId(), vnodes, channel, schema.types(), distKey, rowId));
    return DmlExecutor.onInbox(
        ctx.infoOf(node), inbox, schema, channel, distKey, rowId, vnodes, CHUNK_SIZE);
  }

  /** The hidden {@code _row_id} column of {@code schema}, or -1. */
  static int rowIdIndex(Schema schema) {
    int i = schema.indexOf(ROW_ID);
    return i >= 0 && schema.type(i).equals(DataType.BIGINT) ? i : -1;
  }

  private static Optional<TableDesc> tableOf(StreamPlanNode plan, int tableId) {
    if (plan == null) {
      return Optional.empty();
    }
    if (plan.node() instanceof StreamNode.Materialize m && m.table().tableId() == tableId) {
      return Optional.of(m.table());
    }
    for (StreamPlanNode in : plan.inputs()) {
      Optional<TableDesc> t = tableOf(in, tableId);
      if (t.isPresent()) {
        return t;
      }
    }
    return Optional.empty();
  }
}

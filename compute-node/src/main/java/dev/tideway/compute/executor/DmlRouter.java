package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk.OpRow;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VnodeHasher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits a {@link DmlBatch} by the actor owning each row's vnode, for the frontend side of DML.
 * Each part keeps its rows in batch order. An update whose old and new rows land on different
 * actors becomes a {@code -} on one and a {@code +} on the other.
 *
 * <p>Not thread-safe (reuses a {@link VnodeHasher}); one per writer thread.
 */
public final class DmlRouter {
  private final VnodeHasher hasher;
  private final int[] actorByVnode;

  /**
   * @param types the table's column types
   * @param distributionKey the table's distribution key columns
   * @param actorByVnode for each vnode, the actor id that owns it
   */
  public DmlRouter(List<DataType> types, int[] distributionKey, int[] actorByVnode) {
    this.hasher = new VnodeHasher(types, distributionKey);
    this.actorByVnode = actorByVnode.clone();
  }

  /** The batch's rows per owning actor, in actor-first-seen order. */
  public Map<Integer, DmlBatch> route(DmlBatch batch) {
    Map<Integer, List<OpRow>> parts = new LinkedHashMap<>();
    List<OpRow> rows = batch.rows();
    for (int i = 0; i < rows.size(); i++) {
      OpRow r = rows.get(i);
      int actor = actorOf(r);
      if (r.op() == Op.UPDATE_DELETE) {
        OpRow after = rows.get(i + 1);
        int afterActor = actorOf(after);
        if (afterActor == actor) {
          parts.computeIfAbsent(actor, a -> new ArrayList<>()).add(r);
          parts.get(actor).add(after);
        } else {
          parts.computeIfAbsent(actor, a -> new ArrayList<>()).add(new OpRow(Op.DELETE, r.row()));
          parts
              .computeIfAbsent(afterActor, a -> new ArrayList<>())
              .add(new OpRow(Op.INSERT, after.row()));
        }
        i++;
        continue;
      }
      parts.computeIfAbsent(actor, a -> new ArrayList<>()).add(r);
    }
    Map<Integer, DmlBatch> out = new LinkedHashMap<>();
    parts.forEach((a, rs) -> out.put(a, new DmlBatch(batch.tableId(), rs)));
    return out;
  }

  private int actorOf(OpRow r) {
    int vnode = hasher.vnode(r.row());
    Checks.checkIndex(vnode, actorByVnode.length, "vnode");
    return actorByVnode[vnode];
  }
}

package dev.tideway.protocol.compute;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk.OpRow;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeHasher;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Splits a {@link DmlBatch} by the actor owning each row's vnode, for the frontend side of DML.
 * Each part keeps its rows in batch order. An update whose old and new rows land on different
 * actors becomes a {@code -} on one and a {@code +} on the other.
 *
 * <p>{@link #split} does the same for a write given as deletes and inserts (the node's {@code
 * WriteDml} command), for the sender (route per node) and the node (route per local actor).
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

  /**
   * One actor's share of a write: rows to delete, then rows to insert, each in input order.
   *
   * @param deletes full rows removed (by primary key)
   * @param inserts full rows added
   */
  public record Part(List<Row> deletes, List<Row> inserts) {
    public Part {
      deletes = List.copyOf(deletes);
      inserts = List.copyOf(inserts);
    }

    /** The rows as one batch: the deletes, then the inserts (an update by pk is both). */
    public DmlBatch toBatch(int tableId) {
      List<OpRow> rows = new ArrayList<>(deletes.size() + inserts.size());
      deletes.forEach(r -> rows.add(new OpRow(Op.DELETE, r)));
      inserts.forEach(r -> rows.add(new OpRow(Op.INSERT, r)));
      return new DmlBatch(tableId, rows);
    }

    public int size() {
      return deletes.size() + inserts.size();
    }
  }

  /**
   * Splits a write by the actor owning each row's vnode. Inserts of a table with a hidden {@code
   * _row_id} ({@code rowIdIndex >= 0}) that carry NULL there have no vnode yet: they are spread
   * round-robin over the actors of {@code actorByVnode} (the receiving actor assigns an id in its
   * own vnodes).
   *
   * @param types the table's column types
   * @param distributionKey the table's distribution key columns (empty = singleton, vnode 0)
   * @param rowIdIndex the hidden {@code _row_id} column, or -1
   * @param actorByVnode for each vnode, the actor owning it, or -1 when unknown here
   * @return the parts by actor id, in actor-first-seen order
   * @throws IllegalArgumentException naming the row and its vnode when a row's vnode has no actor
   *     in {@code actorByVnode}, or when a row does not fit the table's types
   */
  public static Map<Integer, Part> split(
      List<DataType> types,
      int[] distributionKey,
      int rowIdIndex,
      int[] actorByVnode,
      List<Row> deletes,
      List<Row> inserts) {
    Checks.checkArgument(
        actorByVnode.length == VirtualNode.COUNT,
        "actorByVnode has %s entries, expected %s",
        actorByVnode.length,
        VirtualNode.COUNT);
    VnodeHasher hasher = new VnodeHasher(types, distributionKey);
    int[] actors = IntStream.of(actorByVnode).filter(a -> a >= 0).distinct().sorted().toArray();
    Map<Integer, List<Row>> del = new LinkedHashMap<>();
    Map<Integer, List<Row>> ins = new LinkedHashMap<>();
    for (Row r : deletes) {
      del.computeIfAbsent(owner(hasher, types, actorByVnode, r), a -> new ArrayList<>()).add(r);
    }
    int spread = 0;
    for (Row r : inserts) {
      int actor;
      if (rowIdIndex >= 0 && r.size() == types.size() && r.get(rowIdIndex) == null) {
        checkFits(types, r);
        Checks.checkArgument(actors.length > 0, "no actor to insert row %s into", r);
        actor = actors[spread++ % actors.length];
      } else {
        actor = owner(hasher, types, actorByVnode, r);
      }
      ins.computeIfAbsent(actor, a -> new ArrayList<>()).add(r);
    }
    Map<Integer, Part> out = new LinkedHashMap<>();
    del.keySet().forEach(a -> out.put(a, null));
    ins.keySet().forEach(a -> out.put(a, null));
    out.replaceAll(
        (a, none) -> new Part(del.getOrDefault(a, List.of()), ins.getOrDefault(a, List.of())));
    return out;
  }

  private static int owner(VnodeHasher hasher, List<DataType> types, int[] actorByVnode, Row r) {
    checkFits(types, r);
    int vnode = hasher.vnode(r);
    int actor = actorByVnode[vnode];
    Checks.checkArgument(
        actor >= 0, "row %s hashes to vnode %s, which no actor here owns", r, vnode);
    return actor;
  }

  /** Fails naming the row, column and value when {@code r} does not fit {@code types}. */
  public static void checkFits(List<DataType> types, Row r) {
    Checks.checkArgument(
        r.size() == types.size(), "row %s has %s columns, the table %s", r, r.size(), types.size());
    for (int c = 0; c < types.size(); c++) {
      Object v = r.get(c);
      Checks.checkArgument(
          types.get(c).accepts(v),
          "row %s: column %s value %s (%s) is not a %s",
          r,
          c,
          v,
          v == null ? "null" : v.getClass().getSimpleName(),
          types.get(c));
    }
  }

  private int actorOf(OpRow r) {
    int vnode = hasher.vnode(r.row());
    Checks.checkIndex(vnode, actorByVnode.length, "vnode");
    return actorByVnode[vnode];
  }
}

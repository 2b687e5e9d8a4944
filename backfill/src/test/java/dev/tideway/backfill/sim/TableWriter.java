package dev.tideway.backfill.sim;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The upstream table and the actor writing it (a DML plus materialize): random inserts, updates
 * (some changing the pk) and deletes as an exact change log, written to storage through a {@link
 * StateTable} and kept in a model with one copy per closed epoch (the batch recomputation the MV is
 * checked against).
 */
public final class TableWriter {
  public static final TableDesc TABLE =
      new TableDesc(
          10,
          "t",
          List.of(
              new ColumnDesc(0, "id", DataType.BIGINT),
              new ColumnDesc(1, "v", DataType.BIGINT),
              new ColumnDesc(2, "s", DataType.VARCHAR)),
          List.of(ColumnOrder.asc(0)),
          List.of(0),
          false,
          true);

  private final StateStore store;
  private StateTable table;
  private TreeMap<Long, Row> model = new TreeMap<>();
  private final TreeMap<Long, NavigableMap<Long, Row>> history = new TreeMap<>();
  private long nextId;

  public TableWriter(StateStore store) {
    this.store = store;
    this.table = StateTable.open(store, TABLE.tableId(), new int[] {0}, StateTables.codecs(TABLE));
    history.put(0L, new TreeMap<>());
  }

  public static Row row(long id, long v) {
    return Row.of(id, v, "s" + (id * 7919 % 1000) + "_" + v);
  }

  /** Inserts {@code n} new rows. */
  public StreamChunk inserts(int n, RandomSource rnd) {
    StreamChunkBuilder b = new StreamChunkBuilder(TABLE.types(), n);
    for (int i = 0; i < n; i++) {
      Row r = row(nextId++, rnd.nextInt(1000));
      b.append(Op.INSERT, r);
      apply(Op.INSERT, r);
    }
    return b.build();
  }

  /** {@code n} random changes to existing rows (and some inserts). */
  public StreamChunk randomChanges(int n, RandomSource rnd) {
    StreamChunkBuilder b = new StreamChunkBuilder(TABLE.types(), 2 * n);
    for (int i = 0; i < n; i++) {
      int kind = rnd.nextInt(10);
      if (model.isEmpty() || kind < 3) {
        Row r = row(nextId++, rnd.nextInt(1000));
        b.append(Op.INSERT, r);
        apply(Op.INSERT, r);
        continue;
      }
      Long id = model.ceilingKey(rnd.nextLong(nextId));
      id = id == null ? model.firstKey() : id;
      Row old = model.get(id);
      if (kind < 5) {
        b.append(Op.DELETE, old);
        apply(Op.DELETE, old);
      } else {
        Row now = kind == 9 ? row(nextId++, rnd.nextInt(1000)) : row(id, rnd.nextInt(1000));
        b.append(Op.UPDATE_DELETE, old).append(Op.UPDATE_INSERT, now);
        apply(Op.DELETE, old);
        apply(Op.INSERT, now);
      }
    }
    return b.build();
  }

  private void apply(Op op, Row r) {
    long id = (Long) r.get(0);
    if (op == Op.INSERT) {
      table.insert(r);
      model.put(id, r);
    } else {
      table.delete(r);
      model.remove(id);
    }
  }

  /** Seals the epoch at a barrier and remembers the table as of {@code b.prev()}. */
  public void onBarrier(Barrier b, boolean first) {
    if (first || b.kind() == BarrierKind.INITIAL) {
      table.init(b.curr());
    } else {
      table.commit(b.curr(), b.prev());
      history.put(b.prev(), new TreeMap<>(model));
    }
  }

  /** The table as of epoch {@code epoch} (the latest closed epoch at or before it). */
  public NavigableMap<Long, Row> at(long epoch) {
    return history.floorEntry(epoch).getValue();
  }

  /** Recovery: the writer restarts from the committed epoch. */
  public void recover(long committedEpoch) {
    table.close();
    table = StateTable.open(store, TABLE.tableId(), new int[] {0}, StateTables.codecs(TABLE));
    model = new TreeMap<>(at(committedEpoch));
    history.tailMap(committedEpoch, false).clear();
  }

  public int size() {
    return model.size();
  }

  /** All ids ever used (for generating). */
  public List<Long> ids() {
    return new ArrayList<>(model.keySet());
  }
}

package dev.tideway.backfill.bench;

import dev.tideway.backfill.state.VnodeProgress;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.key.KeySerde;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.storage.api.StateStore;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The benchmark's upstream table {@code (id BIGINT pk, v BIGINT, s VARCHAR)}, its writer and a
 * compact model that answers "how many live rows lie beyond a vnode's position" in O(vnode size):
 * per vnode the ids in ascending order (new ids only grow) and one live bit per id. {@link
 * #freeze()} keeps the live bits of one epoch (the snapshot backfill's snapshot).
 *
 * <p>Single-threaded (the benchmark driver).
 */
final class BenchTable {
  static final TableDesc DESC =
      new TableDesc(
          30,
          "bench_t",
          List.of(
              new ColumnDesc(0, "id", DataType.BIGINT),
              new ColumnDesc(1, "v", DataType.BIGINT),
              new ColumnDesc(2, "s", DataType.VARCHAR)),
          List.of(ColumnOrder.asc(0)),
          List.of(0),
          false,
          true);

  private final StateTable table;
  private final VnodeHasher hasher = new VnodeHasher(List.of(DataType.BIGINT), new int[] {0});
  private final KeySerde pkSerde = KeySerde.ascending(List.of(DataType.BIGINT));
  private final long[][] ids = new long[VirtualNode.COUNT][];
  private final int[] sizes = new int[VirtualNode.COUNT];
  private final long[] liveCount = new long[VirtualNode.COUNT];
  private final BitSet live = new BitSet();
  private long nextId;
  private BitSet frozenLive;
  private long[] frozenCount;
  private long frozenMaxId;

  BenchTable(StateStore store) {
    this.table = StateTable.open(store, DESC.tableId(), new int[] {0}, StateTables.codecs(DESC));
    for (int v = 0; v < ids.length; v++) {
      ids[v] = new long[1024];
    }
  }

  StateTable stateTable() {
    return table;
  }

  long liveRows() {
    return live.cardinality();
  }

  private static Row row(long id, long v) {
    return Row.of(id, v, "payload-" + (id % 100_000) + "-" + v);
  }

  private int vnode(long id) {
    return hasher.vnode(Row.of(id));
  }

  /** Appends {@code n} new rows (inserts); returns them as a chunk. */
  StreamChunk insert(int n, RandomSource rnd) {
    StreamChunkBuilder b = new StreamChunkBuilder(DESC.types(), n);
    for (int i = 0; i < n; i++) {
      long id = nextId++;
      Row r = row(id, rnd.nextInt(1_000_000));
      table.insert(r);
      b.append(Op.INSERT, r);
      int v = vnode(id);
      if (sizes[v] == ids[v].length) {
        ids[v] = Arrays.copyOf(ids[v], sizes[v] * 2);
      }
      ids[v][sizes[v]++] = id;
      live.set((int) id);
      liveCount[v]++;
    }
    return b.build();
  }

  /** {@code n} changes: half updates, a quarter deletes, a quarter inserts. */
  StreamChunk churn(int n, RandomSource rnd) {
    StreamChunkBuilder b = new StreamChunkBuilder(DESC.types(), 2 * n);
    for (int i = 0; i < n; i++) {
      int kind = rnd.nextInt(4);
      if (kind == 0 || live.isEmpty()) {
        StreamChunk c = insert(1, rnd);
        b.appendRowFrom(Op.INSERT, c, 0);
        continue;
      }
      int id = live.nextSetBit((int) rnd.nextLong(nextId));
      id = id < 0 ? live.nextSetBit(0) : id;
      Row old = table.get(Row.of((long) id)); // the value column is not modelled: read it back
      if (kind == 1) {
        table.delete(old);
        b.append(Op.DELETE, old);
        live.clear(id);
        liveCount[vnode(id)]--;
      } else {
        Row now = row(id, rnd.nextInt(1_000_000));
        table.update(old, now);
        b.append(Op.UPDATE_DELETE, old).append(Op.UPDATE_INSERT, now);
      }
    }
    return b.build();
  }

  /** Remembers the live rows now: {@link #remaining} with {@code frozen} then answers for it. */
  void freeze() {
    frozenLive = (BitSet) live.clone();
    frozenCount = liveCount.clone();
    frozenMaxId = nextId;
  }

  /** Live rows of vnode {@code v} after its position (now, or at the frozen epoch). */
  long remaining(int v, VnodeProgress p, boolean frozen) {
    BitSet bits = frozen ? frozenLive : live;
    long maxId = frozen ? frozenMaxId : nextId;
    if (p instanceof VnodeProgress.Completed) {
      return 0;
    }
    if (p instanceof VnodeProgress.NotStarted) {
      return frozen ? frozenCount[v] : liveCount[v];
    }
    long pos = (Long) pkSerde.decode(((VnodeProgress.InProgress) p).pos()).get(0);
    int from = Arrays.binarySearch(ids[v], 0, sizes[v], pos);
    from = from >= 0 ? from + 1 : -from - 1;
    long n = 0;
    for (int i = from; i < sizes[v] && ids[v][i] < maxId; i++) {
      if (bits.get((int) ids[v][i])) {
        n++;
      }
    }
    return n;
  }
}

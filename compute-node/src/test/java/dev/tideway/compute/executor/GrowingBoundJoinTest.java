package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A join whose right side's bound only grows, in the shape of Nexmark q5: {@code counts(w, id, num)
 * JOIN maxes(w, maxn) ON w AND num >= maxn}, where each count and each max only grows. The counts
 * side keeps only the rows at or above their window's max (the rest can never match again); the
 * view must still equal a batch join at every epoch, and a max that breaks the promise fails the
 * join.
 */
class GrowingBoundJoinTest {
  private static final int LEFT_TABLE = 41;
  private static final List<DataType> BIG3 =
      List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT);

  /** counts(w, id, num) ⋈ maxes(w, maxn) on w and {@code num kind maxn}; num and maxn grow. */
  private static StreamNode.HashJoin plan(FunctionKind kind, List<Integer> growing) {
    ExprNode cond =
        ExprNode.FunctionCall.of(
            kind,
            DataType.BOOLEAN,
            new ExprNode.InputRef(2, DataType.BIGINT),
            new ExprNode.InputRef(4, DataType.BIGINT));
    return new StreamNode.HashJoin(
        JoinType.INNER,
        List.of(0),
        List.of(0),
        Optional.of(cond),
        SortedJoinSideTest.desc(LEFT_TABLE, BIG3, 2),
        SortedJoinSideTest.desc(42, List.of(DataType.BIGINT, DataType.BIGINT), 1),
        growing);
  }

  @Test
  void prunesOnlyWhenThePlanSaysTheBoundGrows() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource l = MockSource.of("bigint", "bigint", "bigint");
      MockSource r = MockSource.of("bigint", "bigint");
      FunctionKind ge = FunctionKind.GREATER_THAN_OR_EQUAL;
      assertThat(join(l, r, plan(ge, List.of(2, 4)), store).prunes(true)).isTrue();
      assertThat(join(l, r, plan(ge, List.of(2, 4)), store).prunes(false)).isFalse();
      // the counts grow, but the max is not declared growing: nothing says it cannot fall
      assertThat(join(l, r, plan(ge, List.of(2)), store).prunes(true)).isFalse();
      // an upper bound (num <= maxn) keeps the rows below a growing max: none can be dropped
      assertThat(
              join(l, r, plan(FunctionKind.LESS_THAN_OR_EQUAL, List.of(2, 4)), store).prunes(true))
          .isFalse();
    }
  }

  private static HashJoinExecutor join(
      MockSource l, MockSource r, StreamNode.HashJoin plan, Storage store) {
    return new HashJoinExecutor(
        HashJoinExecutorTest.INFO, l, r, plan, store, 1 << 18, 20, ExprErrorSink.STRICT);
  }

  @Test
  void randomGrowingCountsAndMaxesMatchABatchJoinAtEveryEpochAndKeepOnlyLiveRows()
      throws Exception {
    for (FunctionKind kind :
        List.of(FunctionKind.GREATER_THAN_OR_EQUAL, FunctionKind.GREATER_THAN)) {
      for (long seed = 1; seed <= 8; seed++) {
        try {
          check(kind, seed, seed % 2 == 0 ? 5 : 1 << 18);
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError(kind + " seed=" + seed, e); // a failed actor names no seed
        }
      }
    }
  }

  private void check(FunctionKind kind, long seed, long capacity) throws Exception {
    Random rnd = new Random(seed);
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    Map<String, Long> counts = new TreeMap<>(); // "w id" -> num
    Map<Long, Long> maxes = new HashMap<>(); // w -> maxn
    List<Map<String, Integer>> expected = new ArrayList<>();
    l.pushBarrier(Epochs.of(1));
    r.pushBarrier(Epochs.of(1));
    int epochs = 14;
    for (int epoch = 2; epoch <= epochs; epoch++) {
      for (int piece = 0; piece < 3; piece++) {
        StringBuilder left = new StringBuilder();
        for (int i = 0; i < 25; i++) {
          String id = rnd.nextInt(3) + " " + rnd.nextInt(12);
          Long old = counts.get(id);
          long next = (old == null ? 0 : old) + 1 + rnd.nextInt(3);
          if (old == null) {
            left.append("+ ").append(id).append(' ').append(next);
          } else if (rnd.nextInt(4) == 0) {
            // the halves out of order, as two upstream actors may deliver them
            left.append("+ ").append(id).append(' ').append(next).append('\n');
            left.append("- ").append(id).append(' ').append(old);
          } else {
            left.append("U- ").append(id).append(' ').append(old).append('\n');
            left.append("U+ ").append(id).append(' ').append(next);
          }
          counts.put(id, next);
          left.append('\n');
        }
        l.pushChunk(left.toString());
        for (long w = 0; w < 3; w++) {
          if (rnd.nextInt(3) != 0) {
            continue;
          }
          Long old = maxes.get(w);
          long next = (old == null ? rnd.nextInt(8) : old) + rnd.nextInt(4);
          if (old == null) {
            r.pushChunk("+ " + w + " " + next);
          } else if (rnd.nextBoolean()) {
            r.pushChunk("U- " + w + " " + old + "\nU+ " + w + " " + next);
          } else {
            // the pair split over two chunks: the join may take a left chunk in between
            r.pushChunk("U- " + w + " " + old);
            l.pushChunk("+ " + w + " 1000 " + (old - 1) + "\n- " + w + " 1000 " + (old - 1));
            r.pushChunk("U+ " + w + " " + next);
          }
          maxes.put(w, next);
        }
      }
      l.pushBarrier(Epochs.of(epoch));
      r.pushBarrier(Epochs.of(epoch));
      Map<String, Integer> join = new TreeMap<>();
      counts.forEach(
          (id, num) -> {
            long w = Long.parseLong(id.split(" ")[0]);
            Long m = maxes.get(w);
            if (m != null && (kind == FunctionKind.GREATER_THAN ? num > m : num >= m)) {
              join.merge(id + " " + num + " " + w + " " + m, 1, Integer::sum);
            }
          });
      expected.add(join);
    }
    String as = kind + " seed " + seed + " capacity " + capacity;
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join =
          new HashJoinExecutor(
              HashJoinExecutorTest.INFO,
              l,
              r,
              plan(kind, List.of(2, 4)),
              store,
              capacity,
              20,
              ExprErrorSink.STRICT);
      assertThat(join.prunes(true)).isTrue();
      Map<String, Integer> view = new TreeMap<>();
      int barriers = 0;
      long committed = 0;
      for (Message m = join.next(); m != null; m = join.next()) {
        if (m instanceof Message.Chunk c) {
          apply(view, c.chunk());
        } else if (m instanceof Barrier b && barriers++ > 0) {
          assertThat(view)
              .as("%s after epoch %s", as, barriers)
              .isEqualTo(expected.get(barriers - 2));
          SyncResult s = store.sync(b.prev()).get();
          store.commitEpoch(b.prev(), s.ssts(), s.statsDelta());
          committed = b.prev();
        }
      }
      assertThat(barriers).isEqualTo(epochs);
      // the counts side holds exactly the counts at or above their window's max, and every count
      // of a window that has no max yet
      List<String> held = new ArrayList<>();
      try (StateTable.CloseableRows rows = leftRows(store, committed)) {
        while (rows.hasNext()) {
          Row row = rows.next();
          assertThat(row.get(3)).as("%s multiplicity of %s", as, row).isEqualTo(1L);
          held.add(row.get(0) + " " + row.get(1) + " " + row.get(2));
        }
      }
      List<String> live = new ArrayList<>();
      counts.forEach(
          (id, num) -> {
            Long m = maxes.get(Long.parseLong(id.split(" ")[0]));
            if (m == null || num >= m) {
              live.add(id + " " + num);
            }
          });
      assertThat(held).as(as).containsExactlyInAnyOrderElementsOf(live);
    }
  }

  /** The counts side's committed rows: w, id, num, multiplicity (sorted by w, num, id). */
  private static StateTable.CloseableRows leftRows(Storage store, long epoch) {
    List<DataType> types =
        List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT, DataType.BIGINT);
    var codecs =
        StateTables.codecs(
            LEFT_TABLE,
            types,
            new int[] {0, 2, 1},
            List.of(OrderType.ASC, OrderType.ASC, OrderType.ASC),
            new int[] {0});
    return StateTable.readCommitted(store, LEFT_TABLE, codecs, epoch);
  }

  private static void apply(Map<String, Integer> view, StreamChunk chunk) {
    for (int i = 0; i < chunk.size(); i++) {
      if (chunk.isVisible(i)) {
        Row row = chunk.row(i);
        StringBuilder k = new StringBuilder();
        for (int j = 0; j < row.size(); j++) {
          k.append(j == 0 ? "" : " ").append(row.get(j));
        }
        view.merge(k.toString(), chunk.op(i).isInsert() ? 1 : -1, Integer::sum);
        view.values().removeIf(n -> n == 0);
      }
    }
  }

  @Test
  void aMaxThatFallsFailsTheJoinNamingBothValues() {
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushChunk("+ 1 5 7").pushBarrier(Epochs.of(2));
    r.pushBarrier(Epochs.of(1)).pushChunk("+ 1 6\nU- 1 6\nU+ 1 4").pushBarrier(Epochs.of(2));
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join =
          join(l, r, plan(FunctionKind.GREATER_THAN_OR_EQUAL, List.of(2, 4)), store);
      assertThatThrownBy(() -> Drain.all(join))
          .hasMessageContaining("only grows fell from 6 to 4 under key");
    }
  }

  @Test
  void aMaxDeletedWithoutItsUpdateFailsAtTheBarrier() {
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushBarrier(Epochs.of(2));
    r.pushBarrier(Epochs.of(1)).pushChunk("+ 1 6\n- 1 6").pushBarrier(Epochs.of(2));
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join =
          join(l, r, plan(FunctionKind.GREATER_THAN_OR_EQUAL, List.of(2, 4)), store);
      assertThatThrownBy(() -> Drain.all(join)).hasMessageContaining("was not followed by its U+");
    }
  }

  @Test
  void aSecondMaxUnderOneKeyFailsTheJoin() {
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushBarrier(Epochs.of(2));
    r.pushBarrier(Epochs.of(1)).pushChunk("+ 1 6\n+ 1 9").pushBarrier(Epochs.of(2));
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join =
          join(l, r, plan(FunctionKind.GREATER_THAN_OR_EQUAL, List.of(2, 4)), store);
      assertThatThrownBy(() -> Drain.all(join))
          .hasMessageContaining("holds one row per join key, but it holds 2");
    }
  }
}

package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Joins with a range conjunct, in the shape of Nexmark q5: {@code counts(w, id, num) JOIN maxes(w,
 * maxn) ON w AND num <op> maxn}, the counts sorted by (w, num, ...) and probed by range ({@link
 * SortedJoinSide}), the maxes one row per window.
 */
class SortedJoinSideTest {
  private static final List<DataType> BIG3 =
      List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT);

  /** A table desc over {@code types} with pk = the first {@code pkLen} columns. */
  static TableDesc desc(int id, List<DataType> types, int pkLen) {
    List<ColumnDesc> cols = new ArrayList<>();
    List<ColumnOrder> pk = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      cols.add(new ColumnDesc(i, "c" + i, types.get(i)));
      if (i < pkLen) {
        pk.add(ColumnOrder.asc(i));
      }
    }
    return new TableDesc(id, "t" + id, cols, pk, List.of(0), false, false);
  }

  /** counts(w, id, num) ⋈ maxes(w, maxn) on w and {@code num kind maxn}. */
  private static StreamNode.HashJoin plan(FunctionKind kind) {
    return plan(kind, false);
  }

  /**
   * The same; with {@code rightSorted} the maxes' desc keys them by (w, maxn), so nothing says a
   * window holds one max and that side is sorted by maxn too (probed from each count's num).
   */
  private static StreamNode.HashJoin plan(FunctionKind kind, boolean rightSorted) {
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
        desc(41, BIG3, 2),
        desc(42, List.of(DataType.BIGINT, DataType.BIGINT), rightSorted ? 2 : 1));
  }

  private static boolean holds(FunctionKind kind, long num, long maxn) {
    return switch (kind) {
      case GREATER_THAN_OR_EQUAL -> num >= maxn;
      case GREATER_THAN -> num > maxn;
      case LESS_THAN_OR_EQUAL -> num <= maxn;
      default -> num < maxn;
    };
  }

  @Test
  void randomChangesOnBothSidesMatchABatchJoinAtEveryEpoch() {
    for (FunctionKind kind :
        List.of(
            FunctionKind.GREATER_THAN_OR_EQUAL,
            FunctionKind.GREATER_THAN,
            FunctionKind.LESS_THAN_OR_EQUAL,
            FunctionKind.LESS_THAN)) {
      for (long seed = 1; seed <= 6; seed++) {
        // a cache of 5 units: keys are evicted and re-read in pieces at nearly every barrier
        for (long capacity : new long[] {5, 1 << 18}) {
          try {
            checkAgainstBatch(kind, seed, capacity, seed % 2 == 0);
          } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(kind + " seed=" + seed + " capacity=" + capacity, e);
          }
        }
      }
    }
  }

  private void checkAgainstBatch(FunctionKind kind, long seed, long capacity, boolean rightSorted) {
    Random rnd = new Random(seed);
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    // left rows as "w id num" with their multiplicity: ids repeat, so do whole rows, and an
    // update may arrive as its insert before its delete (two upstream actors)
    Map<String, Integer> counts = new TreeMap<>();
    Map<Long, Long> maxes = new HashMap<>(); // w -> maxn
    List<Map<String, Integer>> expected = new ArrayList<>();
    l.pushBarrier(Epochs.of(1));
    r.pushBarrier(Epochs.of(1));
    for (int epoch = 2; epoch <= 12; epoch++) {
      StringBuilder left = new StringBuilder();
      for (int i = 0; i < 30; i++) {
        int what = rnd.nextInt(10);
        String fresh = rnd.nextInt(3) + " " + rnd.nextInt(8) + " " + (rnd.nextInt(20) - 5);
        if (counts.isEmpty() || what < 4) {
          counts.merge(fresh, 1, Integer::sum);
          left.append("+ ").append(fresh);
        } else {
          List<String> rows = new ArrayList<>(counts.keySet());
          String old = rows.get(rnd.nextInt(rows.size()));
          counts.merge(old, -1, Integer::sum);
          counts.values().removeIf(n -> n == 0);
          if (what < 6) {
            left.append("U- ").append(old).append("\nU+ ").append(fresh);
            counts.merge(fresh, 1, Integer::sum);
          } else if (what < 8) {
            left.append("+ ").append(fresh).append("\n- ").append(old);
            counts.merge(fresh, 1, Integer::sum);
          } else {
            left.append("- ").append(old);
          }
        }
        left.append('\n');
      }
      l.pushChunk(left.toString());
      StringBuilder right = new StringBuilder();
      for (long w = 0; w < 3; w++) {
        if (rnd.nextInt(3) == 0) {
          continue;
        }
        Long old = maxes.get(w);
        long next = rnd.nextInt(22) - 5;
        if (old == null) {
          right.append("+ ").append(w).append(' ').append(next).append('\n');
          maxes.put(w, next);
        } else if (rnd.nextInt(5) == 0) {
          right.append("- ").append(w).append(' ').append(old).append('\n');
          maxes.remove(w);
        } else {
          right.append("U- ").append(w).append(' ').append(old).append('\n');
          right.append("U+ ").append(w).append(' ').append(next).append('\n');
          maxes.put(w, next);
        }
      }
      if (!right.isEmpty()) {
        r.pushChunk(right.toString());
      }
      l.pushBarrier(Epochs.of(epoch));
      r.pushBarrier(Epochs.of(epoch));
      Map<String, Integer> join = new TreeMap<>();
      counts.forEach(
          (row, times) -> {
            String[] v = row.split(" ");
            Long m = maxes.get(Long.parseLong(v[0]));
            if (m != null && holds(kind, Long.parseLong(v[2]), m)) {
              join.merge(row + " " + v[0] + " " + m, times, Integer::sum);
            }
          });
      expected.add(join);
    }
    List<Message> out;
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      out =
          Drain.all(
              new HashJoinExecutor(
                  HashJoinExecutorTest.INFO,
                  l,
                  r,
                  plan(kind, rightSorted),
                  store,
                  capacity,
                  20,
                  ExprErrorSink.STRICT));
    }
    Map<String, Integer> view = new TreeMap<>();
    int barriers = 0;
    for (Message m : out) {
      if (m instanceof Message.Chunk c) {
        StreamChunk chunk = c.chunk();
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
      } else if (m instanceof Barrier && barriers++ > 0) {
        assertThat(view)
            .as("%s seed %s capacity %s after epoch %s", kind, seed, capacity, barriers)
            .isEqualTo(expected.get(barriers - 2));
      }
    }
    assertThat(barriers).isEqualTo(12);
  }

  @Test
  void aChangeOfTheBoundReadsOnlyTheRowsAtOrAboveIt() {
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    StringBuilder rows = new StringBuilder();
    for (int id = 0; id < 5000; id++) {
      rows.append("+ 1 ").append(id).append(' ').append(id % 1000).append('\n');
    }
    l.pushBarrier(Epochs.of(1)).pushChunk(rows.toString()).pushBarrier(Epochs.of(2));
    l.pushBarrier(Epochs.of(3)).pushBarrier(Epochs.of(4));
    r.pushBarrier(Epochs.of(1)).pushBarrier(Epochs.of(2));
    r.pushChunk("+ 1 998").pushBarrier(Epochs.of(3));
    r.pushChunk("U- 1 998\nU+ 1 500").pushBarrier(Epochs.of(4));
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join =
          new HashJoinExecutor(
              HashJoinExecutorTest.INFO,
              l,
              r,
              plan(FunctionKind.GREATER_THAN_OR_EQUAL),
              store,
              1 << 18,
              20,
              ExprErrorSink.STRICT);
      List<Message> out = Drain.all(join);
      int firstBarrier3 = 0;
      while (!(out.get(firstBarrier3) instanceof Barrier b && b.curr() == Epochs.of(3))) {
        firstBarrier3++;
      }
      // the 10 rows with num 998 or 999 match; the probe read them, not the window's 5000 rows
      assertThat(cardinality(out.subList(0, firstBarrier3))).isEqualTo(10);
      // the bound falls to 500: 10 retractions, then the 2500 rows from 500 up, read by growing
      // the cached range downwards, still not the whole window
      assertThat(cardinality(out.subList(firstBarrier3, out.size()))).isEqualTo(2510);
      assertThat(join.cachedUnits()).isBetween(2500L, 2600L);
    }
  }

  private static int cardinality(List<Message> messages) {
    return Drain.chunks(messages).stream().mapToInt(StreamChunk::cardinality).sum();
  }

  @Test
  void aDeleteOfARowTheSideDoesNotHoldFailsNamingTheSide() {
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushChunk("+ 1 5 7\n- 1 5 8").pushBarrier(Epochs.of(2));
    r.pushBarrier(Epochs.of(1)).pushBarrier(Epochs.of(2));
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      HashJoinExecutor join =
          new HashJoinExecutor(
              HashJoinExecutorTest.INFO, l, r, plan(FunctionKind.GREATER_THAN), store);
      assertThatThrownBy(() -> Drain.all(join))
          .hasMessageContaining("delete of row")
          .hasMessageContaining("left side does not hold");
    }
  }
}

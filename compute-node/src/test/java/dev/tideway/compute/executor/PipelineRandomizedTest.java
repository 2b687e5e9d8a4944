package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Random insert/update/delete streams through {@code filter → project → hash agg → materialize} and
 * {@code join(condition) → materialize}; after every checkpoint the committed materialized view
 * must equal the query recomputed in batch over the input as of that epoch.
 *
 * <p>Runs a fixed set of seeds; the seed of a failure is in its message. Replay one with {@code
 * -Dtideway.seed=N}.
 */
class PipelineRandomizedTest {
  static final int EPOCHS = 15;
  static final ExecutorInfo INFO = new ExecutorInfo(1, 1, "Pipeline");

  static List<Long> seeds() {
    String s = System.getProperty("tideway.seed");
    if (s != null) {
      return List.of(Long.parseLong(s.trim()));
    }
    List<Long> out = new ArrayList<>();
    RandomSource r = RandomSource.seeded(20_261_129L);
    for (int i = 0; i < 4; i++) {
      out.add(r.nextLong());
    }
    return out;
  }

  // ---------------------------------------------------------------- input model

  /** A table of (id pk, x, y) rows and random changes to it, chunk by chunk. */
  static final class RandomTable {
    final RandomSource random;
    final Map<Long, Row> rows = new TreeMap<>();
    final int keys;
    final boolean insertsOnly;
    long nextId;

    RandomTable(RandomSource random, int keys) {
      this(random, keys, false);
    }

    /** A table whose chunks only insert when {@code insertsOnly} (an append-only stream). */
    RandomTable(RandomSource random, int keys, boolean insertsOnly) {
      this.random = random;
      this.keys = keys;
      this.insertsOnly = insertsOnly;
    }

    Row randomRow(long id) {
      Long y = random.chance(0.1) ? null : (long) random.nextInt(-50, 51);
      return Row.of(id, (long) random.nextInt(keys), y);
    }

    /** A chunk of random changes; hidden rows (both halves of an update) are not applied. */
    dev.tideway.common.chunk.StreamChunk nextChunk() {
      StreamChunkBuilder b =
          new StreamChunkBuilder(List.of(DataType.BIGINT, DataType.BIGINT, DataType.BIGINT), 16);
      int n = random.nextInt(1, 12);
      for (int i = 0; i < n; i++) {
        boolean hide = random.chance(0.1);
        int what = rows.isEmpty() || insertsOnly ? 0 : random.nextInt(3);
        if (what == 0) {
          Row r = randomRow(nextId++);
          b.append(Op.INSERT, r);
          if (hide) {
            b.hideLast();
          } else {
            rows.put((Long) r.get(0), r);
          }
          continue;
        }
        Row old = pick();
        if (what == 1) {
          Row r = randomRow((Long) old.get(0));
          b.append(Op.UPDATE_DELETE, old);
          if (hide) {
            b.hideLast();
          }
          b.append(Op.UPDATE_INSERT, r);
          if (hide) {
            b.hideLast();
          } else {
            rows.put((Long) r.get(0), r);
          }
        } else {
          b.append(Op.DELETE, old);
          if (hide) {
            b.hideLast();
          } else {
            rows.remove((Long) old.get(0));
          }
        }
      }
      return b.build();
    }

    private Row pick() {
      List<Row> all = new ArrayList<>(rows.values());
      return all.get(random.nextInt(all.size()));
    }
  }

  // ---------------------------------------------------------------- expressions

  static ExprNode ref(int i) {
    return new ExprNode.InputRef(i, DataType.BIGINT);
  }

  static ExprNode lit(long v) {
    return new ExprNode.Literal(v, DataType.BIGINT);
  }

  static ExprNode call(FunctionKind k, DataType t, ExprNode... args) {
    return ExprNode.FunctionCall.of(k, t, args);
  }

  // ---------------------------------------------------------------- agg pipeline

  /**
   * {@code SELECT g, count(*), count(w), sum(w), min(w), max(w), avg(w) FROM (SELECT x AS g, y * 2
   * AS w, id FROM t WHERE y IS NULL OR y % 3 <> 0) GROUP BY g}.
   */
  @Test
  void filterProjectAggMaterializeEqualsBatchRecomputationAtEveryEpoch() throws Exception {
    int crashes = 0;
    for (long seed : seeds()) {
      try {
        crashes += runAgg(seed);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed=" + seed + " (replay with -Dtideway.seed=" + seed + ")", e);
      }
    }
    if (System.getProperty("tideway.seed") == null) {
      assertThat(crashes).as("the default seeds exercise recovery").isPositive();
    }
  }

  /** A built filter → project → agg → materialize chain: its source and its last executor. */
  private record AggPipeline(MockSource source, Executor last) {}

  private static AggPipeline buildAgg(
      Storage store, int cacheCapacity, int filterBits, int flushRows, int maxDirty) {
    MockSource src = MockSource.of("bigint", "bigint", "bigint");
    ExprNode pred =
        call(
            FunctionKind.OR,
            DataType.BOOLEAN,
            call(FunctionKind.IS_NULL, DataType.BOOLEAN, ref(2)),
            call(
                FunctionKind.NOT_EQUAL,
                DataType.BOOLEAN,
                call(FunctionKind.MODULUS, DataType.BIGINT, ref(2), lit(3)),
                lit(0)));
    Executor filter =
        CheckedExecutor.wrap(new FilterExecutor(INFO, CheckedExecutor.wrap(src), pred));
    Executor project =
        CheckedExecutor.wrap(
            ProjectExecutor.of(
                INFO,
                filter,
                List.of(
                    ref(1), call(FunctionKind.MULTIPLY, DataType.BIGINT, ref(2), lit(2)), ref(0))));
    ExprNode.InputRef w = new ExprNode.InputRef(1, DataType.BIGINT);
    StreamNode.HashAgg aggPlan =
        new StreamNode.HashAgg(
            List.of(0),
            List.of(
                AggCall.countStar(),
                AggCall.of(AggKind.COUNT, w, DataType.BIGINT),
                AggCall.of(AggKind.SUM, w, DataType.DECIMAL),
                AggCall.of(AggKind.MIN, w, DataType.BIGINT),
                AggCall.of(AggKind.MAX, w, DataType.BIGINT),
                AggCall.of(AggKind.AVG, w, DataType.DECIMAL)),
            HashAggExecutorTest.table(50),
            Map.of(3, HashAggExecutorTest.table(51), 4, HashAggExecutorTest.table(52)));
    Executor agg =
        CheckedExecutor.wrap(
            new HashAggExecutor(
                INFO, project, aggPlan, store, cacheCapacity, filterBits, flushRows, maxDirty));
    StateTable mvTable =
        StateTables.open(
            store, 53, agg.schema().types(), new int[] {0}, List.of(OrderType.ASC), new int[] {0});
    return new AggPipeline(src, CheckedExecutor.wrap(new MaterializeExecutor(INFO, agg, mvTable)));
  }

  /**
   * Also crashes now and then in the middle of an epoch: uncommitted state is dropped, the chain is
   * rebuilt from the committed state with an initial barrier, and the lost epoch's input is
   * replayed, as recovery replays it from the sources' restored offsets.
   */
  private int runAgg(long seed) throws Exception {
    RandomSource random = RandomSource.seeded(seed);
    RandomTable t = new RandomTable(random.split(), 6);
    int cache = 1 + random.nextInt(4);
    int filterBits = random.chance(0.5) ? 6 : 20; // mostly "maybe" (reads) or "never" (blind)
    // flushes within epochs on some seeds (a changed group may then flush twice in one epoch)
    int flushRows = random.chance(0.5) ? 1 + random.nextInt(8) : 1 << 20;
    int maxDirty = random.chance(0.5) ? 1 + random.nextInt(4) : 1 << 20;
    int crashes = 0;
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      AggPipeline p = buildAgg(store, cache, filterBits, flushRows, maxDirty);
      List<DataType> mvTypes = p.last().schema().types();
      var codecs =
          StateTables.codecs(53, mvTypes, new int[] {0}, List.of(OrderType.ASC), new int[] {0});
      long epoch = 1;
      long committedEpoch = 0;
      p.source().pushBarrier(Epochs.of(epoch));
      pullUntilBarrier(p.last());
      for (int e = 1; e <= EPOCHS; e++) {
        List<dev.tideway.common.chunk.StreamChunk> input = new ArrayList<>();
        for (int c = random.nextInt(0, 5); c > 0; c--) {
          input.add(t.nextChunk());
        }
        input.forEach(p.source()::pushChunk);
        if (committedEpoch > 0 && random.chance(0.2)) {
          while (p.last().next() != null) {} // the epoch's input is processed, not committed
          store.clearUncommitted();
          crashes++;
          if (System.getProperty("tideway.debug") != null) {
            System.err.println("DEBUG CRASH");
          }
          p = buildAgg(store, cache, filterBits, flushRows, maxDirty);
          epoch++;
          p.source()
              .pushBarrier(
                  new Barrier(
                      new EpochPair(Epochs.of(epoch), committedEpoch), BarrierKind.INITIAL, null));
          assertThat(pullUntilBarrier(p.last()).kind()).isEqualTo(BarrierKind.INITIAL);
          input.forEach(p.source()::pushChunk);
        }
        p.source().pushBarrier(Epochs.of(++epoch));
        Barrier b = pullUntilBarrier(p.last());
        checkpoint(store, b);
        committedEpoch = b.prev();
        assertThat(committed(store, 53, codecs, b.prev()))
            .as("epoch %s", e)
            .containsExactlyInAnyOrderElementsOf(batchAgg(t.rows.values()));
      }
    }
    return crashes;
  }

  static List<Row> batchAgg(Iterable<Row> input) {
    Map<Long, List<Long>> groups = new LinkedHashMap<>(); // g -> w values (null kept)
    for (Row r : input) {
      Long y = (Long) r.get(2);
      if (y != null && y % 3 == 0) {
        continue;
      }
      groups.computeIfAbsent((Long) r.get(1), g -> new ArrayList<>()).add(y == null ? null : y * 2);
    }
    List<Row> out = new ArrayList<>();
    groups.forEach(
        (g, ws) -> {
          List<Long> nn = ws.stream().filter(x -> x != null).toList();
          BigDecimal sum =
              nn.isEmpty() ? null : BigDecimal.valueOf(nn.stream().mapToLong(x -> x).sum());
          BigDecimal avg =
              sum == null
                  ? null
                  : sum.divide(
                      BigDecimal.valueOf(nn.size()),
                      Math.max(16, sum.scale()),
                      RoundingMode.HALF_UP);
          out.add(
              Row.of(
                  g,
                  (long) ws.size(),
                  (long) nn.size(),
                  sum,
                  nn.isEmpty() ? null : Collections.min(nn),
                  nn.isEmpty() ? null : Collections.max(nn),
                  avg));
        });
    return out;
  }

  // ---------------------------------------------------------------- join pipeline

  /** {@code SELECT * FROM l JOIN r ON l.x = r.x AND l.y < r.y}, materialized by (l.id, r.id). */
  @Test
  void joinWithConditionMaterializeEqualsBatchRecomputationAtEveryEpoch() throws Exception {
    joinEqualsBatchRecomputation(Sides.SORTED);
  }

  /**
   * The same with the condition written {@code l.y + 0 < r.y}, which bounds no column by a column:
   * both sides keep the unsorted multiplicity layout ({@link JoinSideState}).
   */
  @Test
  void joinWithUnsortedSidesEqualsBatchRecomputationAtEveryEpoch() throws Exception {
    joinEqualsBatchRecomputation(Sides.UNSORTED);
  }

  /** The join sides' layouts a run exercises. */
  private enum Sides {
    /** l.y < r.y: both sides sorted by y ({@link SortedJoinSide}). */
    SORTED,
    /** l.y + 0 < r.y: both sides unsorted, with multiplicities. */
    UNSORTED,
    /** l.y < r.y with an append-only left side (stored by identity). */
    APPEND_ONLY_LEFT
  }

  /**
   * The same with an append-only left side (inserts only, stored by identity with blind writes):
   * rows of one key written in many epochs, evicted and reloaded, and replayed after crashes must
   * all match once each.
   */
  @Test
  void joinWithAnAppendOnlySideEqualsBatchRecomputationAtEveryEpoch() throws Exception {
    joinEqualsBatchRecomputation(Sides.APPEND_ONLY_LEFT);
  }

  private void joinEqualsBatchRecomputation(Sides sides) throws Exception {
    int crashes = 0;
    for (long seed : seeds()) {
      try {
        crashes += runJoin(seed, sides);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed=" + seed + " (replay with -Dtideway.seed=" + seed + ")", e);
      }
    }
    if (System.getProperty("tideway.seed") == null) {
      assertThat(crashes).as("the default seeds exercise recovery").isPositive();
    }
  }

  /** A built join → materialize chain: its two sources and its last executor. */
  private record JoinPipeline(MockSource left, MockSource right, Executor last) {}

  private static JoinPipeline buildJoin(
      Storage store, long cacheUnits, int filterBits, Sides sides) {
    ExprNode y =
        sides == Sides.UNSORTED ? call(FunctionKind.ADD, DataType.BIGINT, ref(2), lit(0)) : ref(2);
    MockSource l = MockSource.of("bigint", "bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint", "bigint");
    StreamNode.HashJoin plan =
        new StreamNode.HashJoin(
            JoinType.INNER,
            List.of(1),
            List.of(1),
            Optional.of(call(FunctionKind.LESS_THAN, DataType.BOOLEAN, y, ref(5))),
            HashAggExecutorTest.table(60, sides == Sides.APPEND_ONLY_LEFT),
            HashAggExecutorTest.table(61));
    Executor join =
        CheckedExecutor.wrap(
            new HashJoinExecutor(
                INFO,
                CheckedExecutor.wrap(l),
                CheckedExecutor.wrap(r),
                plan,
                store,
                cacheUnits,
                filterBits,
                ExprErrorSink.STRICT));
    List<DataType> types = join.schema().types();
    int[] pk = {0, 3};
    List<OrderType> orders = List.of(OrderType.ASC, OrderType.ASC);
    Executor mat =
        CheckedExecutor.wrap(
            new MaterializeExecutor(
                INFO, join, StateTables.open(store, 62, types, pk, orders, pk)));
    return new JoinPipeline(l, r, mat);
  }

  /**
   * Each seed picks a cache of 1 to 8 units (so keys are evicted at almost every barrier) and a key
   * filter of 64 bits (mostly "maybe": the read paths) or 2^20 bits (mostly "never": the blind
   * paths); crashes now and then mid-epoch as the agg pipeline does, so a rebuilt join must not
   * trust anything its predecessor cached.
   */
  private int runJoin(long seed, Sides sides) throws Exception {
    RandomSource random = RandomSource.seeded(seed);
    RandomTable lt = new RandomTable(random.split(), 4, sides == Sides.APPEND_ONLY_LEFT);
    RandomTable rt = new RandomTable(random.split(), 4);
    long cacheUnits = 1 + random.nextInt(8);
    int filterBits = random.chance(0.5) ? 6 : 20;
    int crashes = 0;
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      JoinPipeline p = buildJoin(store, cacheUnits, filterBits, sides);
      List<DataType> types = p.last().schema().types();
      int[] pk = {0, 3};
      var codecs = StateTables.codecs(62, types, pk, List.of(OrderType.ASC, OrderType.ASC), pk);
      long epoch = 1;
      long committedEpoch = 0;
      p.left().pushBarrier(Epochs.of(epoch));
      p.right().pushBarrier(Epochs.of(epoch));
      pullUntilBarrier(p.last());
      for (int e = 1; e <= EPOCHS; e++) {
        List<dev.tideway.common.chunk.StreamChunk> left = new ArrayList<>();
        List<dev.tideway.common.chunk.StreamChunk> right = new ArrayList<>();
        for (int c = random.nextInt(0, 4); c > 0; c--) {
          left.add(lt.nextChunk());
        }
        for (int c = random.nextInt(0, 4); c > 0; c--) {
          right.add(rt.nextChunk());
        }
        left.forEach(p.left()::pushChunk);
        right.forEach(p.right()::pushChunk);
        if (committedEpoch > 0 && random.chance(0.25)) {
          while (p.last().next() != null) {} // processed with a warm cache, never committed
          store.clearUncommitted();
          crashes++;
          p = buildJoin(store, cacheUnits, filterBits, sides);
          epoch++;
          Barrier init =
              new Barrier(
                  new EpochPair(Epochs.of(epoch), committedEpoch), BarrierKind.INITIAL, null);
          p.left().pushBarrier(init);
          p.right().pushBarrier(init);
          assertThat(pullUntilBarrier(p.last()).kind()).isEqualTo(BarrierKind.INITIAL);
          left.forEach(p.left()::pushChunk);
          right.forEach(p.right()::pushChunk);
        }
        p.left().pushBarrier(Epochs.of(++epoch));
        p.right().pushBarrier(Epochs.of(epoch));
        Barrier b = pullUntilBarrier(p.last());
        checkpoint(store, b);
        committedEpoch = b.prev();
        List<Row> expected = new ArrayList<>();
        for (Row a : lt.rows.values()) {
          for (Row c : rt.rows.values()) {
            if (a.get(1).equals(c.get(1))
                && a.get(2) != null
                && c.get(2) != null
                && (Long) a.get(2) < (Long) c.get(2)) {
              expected.add(a.concat(c));
            }
          }
        }
        assertThat(committed(store, 62, codecs, b.prev()))
            .as("epoch %s (cache %s units, filter 2^%s bits)", e, cacheUnits, filterBits)
            .containsExactlyInAnyOrderElementsOf(expected);
      }
    }
    return crashes;
  }

  // ---------------------------------------------------------------- helpers

  static Barrier pullUntilBarrier(Executor e) {
    while (true) {
      Message m = e.next();
      if (System.getProperty("tideway.debug") != null) {
        System.err.println("DEBUG " + (m instanceof Message.Chunk c ? c.chunk().toString() : m));
      }
      assertThat(m).as("stream ended before the barrier").isNotNull();
      if (m instanceof Barrier b) {
        return b;
      }
    }
  }

  static void checkpoint(Storage store, Barrier b) throws Exception {
    if (b.kind() == BarrierKind.INITIAL) {
      return;
    }
    SyncResult r = store.sync(b.prev()).get();
    store.commitEpoch(b.prev(), r.ssts(), r.statsDelta());
  }

  static List<Row> committed(
      Storage store, int tableId, dev.tideway.storage.table.RowCodecs codecs, long epoch) {
    List<Row> out = new ArrayList<>();
    try (StateTable.CloseableRows rows = StateTable.readCommitted(store, tableId, codecs, epoch)) {
      rows.forEachRemaining(out::add);
    }
    return out;
  }
}

package dev.tideway.compute.executor;

import static dev.tideway.compute.executor.PipelineRandomizedTest.checkpoint;
import static dev.tideway.compute.executor.PipelineRandomizedTest.committed;
import static dev.tideway.compute.executor.PipelineRandomizedTest.pullUntilBarrier;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Temporals;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The per-pane count of HOP windows against a batch count per window: random partial counts per
 * (group, pane), flushed within epochs on some seeds, the cache tiny on some, and crashes in the
 * middle of an epoch (uncommitted state dropped, the executor rebuilt from committed state, the
 * epoch replayed); after every checkpoint the committed view must equal the batch count, and every
 * change must be an insert or an adjacent {@code U-}/{@code U+} pair to a higher count.
 */
class PaneHopAggExecutorTest {
  private static final ExecutorInfo INFO = new ExecutorInfo(1, 1, "PaneHopAgg");
  private static final long SLIDE = 2_000_000L;
  private static final long SIZE = 10_000_000L;
  private static final int STATE_TABLE = 70;
  private static final int MV_TABLE = 71;

  private static StreamNode.PaneHopAgg plan() {
    return new StreamNode.PaneHopAgg(
        List.of(0),
        1,
        2,
        Interval.ofMicros(SLIDE),
        Interval.ofMicros(SIZE),
        HashAggExecutorTest.table(STATE_TABLE));
  }

  private static StreamChunk partials(List<long[]> rows) {
    StreamChunkBuilder b =
        new StreamChunkBuilder(List.of(DataType.BIGINT, DataType.TIMESTAMP, DataType.BIGINT), 8);
    for (long[] r : rows) {
      b.append(Op.INSERT, Row.of(r[0], Temporals.microsToTimestamp(r[1]), r[2]));
    }
    return b.build();
  }

  /** A source of partials → the pane count (checked) → materialize by (group, window). */
  private record Pipeline(MockSource source, Executor last) {}

  private static Pipeline build(
      Storage store, int cache, int maxDirty, Map<List<Object>, Long> view) {
    MockSource src = MockSource.of("bigint", "timestamp", "bigint");
    Executor agg =
        CheckedExecutor.wrap(
            new PaneHopAggExecutor(
                INFO, CheckedExecutor.wrap(src), plan(), store, cache, 20, maxDirty));
    Executor pairs = new PairCheck(agg, view);
    StateTable mv =
        StateTables.open(
            store,
            MV_TABLE,
            agg.schema().types(),
            new int[] {0, 1, 2},
            List.of(OrderType.ASC, OrderType.ASC, OrderType.ASC),
            new int[] {0});
    return new Pipeline(src, CheckedExecutor.wrap(new MaterializeExecutor(INFO, pairs, mv)));
  }

  /**
   * Passes messages on, checking each change against {@code view}, the counts emitted so far: an
   * insert is of a window not in it, a {@code U-} retracts the count it holds and is followed by
   * the same window's {@code U+} to a higher count.
   */
  private record PairCheck(Executor input, Map<List<Object>, Long> view) implements Executor {
    @Override
    public dev.tideway.common.types.Schema schema() {
      return input.schema();
    }

    @Override
    public ExecutorInfo info() {
      return input.info();
    }

    @Override
    public Message next() {
      Message m = input.next();
      if (m instanceof Message.Chunk c) {
        StreamChunk k = c.chunk();
        for (int i = 0; i < k.size(); i++) {
          Op op = k.op(i);
          Row row = k.row(i);
          List<Object> w = List.of(row.get(0), row.get(1));
          long n = (Long) row.get(3);
          switch (op) {
            case INSERT -> assertThat(view.put(w, n)).as("insert of %s", row).isNull();
            case UPDATE_DELETE -> {
              assertThat(view.get(w)).as("U- of %s", row).isEqualTo(n);
              assertThat(k.op(i + 1)).isEqualTo(Op.UPDATE_INSERT);
              assertThat(k.row(i + 1).project(new int[] {0, 1, 2}))
                  .isEqualTo(row.project(new int[] {0, 1, 2}));
              assertThat((Long) k.row(i + 1).get(3)).isGreaterThan(n);
            }
            case UPDATE_INSERT -> view.put(w, n);
            default -> throw new AssertionError("a pane count never deletes: " + row);
          }
        }
      }
      return m;
    }
  }

  @Test
  void randomPartialsMatchABatchCountPerWindowAfterEveryCheckpointThroughCrashes()
      throws Exception {
    int crashes = 0;
    for (long seed = 1; seed <= 12; seed++) {
      try {
        crashes += run(seed);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed=" + seed, e); // also for the checks inside the pipeline
      }
    }
    assertThat(crashes).as("the seeds exercise recovery").isPositive();
  }

  private int run(long seed) throws Exception {
    Random rnd = new Random(seed);
    int cache = seed % 3 == 0 ? 1 : 1 << 10;
    int maxDirty = seed % 2 == 0 ? 1 + rnd.nextInt(3) : 1 << 20;
    Map<String, Long> panes = new TreeMap<>(); // "group pane" -> count
    int crashes = 0;
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      Map<List<Object>, Long> view = new java.util.HashMap<>();
      Pipeline p = build(store, cache, maxDirty, view);
      var codecs =
          StateTables.codecs(
              MV_TABLE,
              p.last().schema().types(),
              new int[] {0, 1, 2},
              List.of(OrderType.ASC, OrderType.ASC, OrderType.ASC),
              new int[] {0});
      long epoch = 1;
      long committedEpoch = 0;
      p.source().pushBarrier(Epochs.of(epoch));
      pullUntilBarrier(p.last());
      for (int e = 1; e <= 12; e++) {
        List<StreamChunk> input = new ArrayList<>();
        for (int c = rnd.nextInt(4); c > 0; c--) {
          List<long[]> rows = new ArrayList<>();
          for (int r = rnd.nextInt(1, 6); r > 0; r--) {
            // panes from -3 to 8 slides: windows before the epoch of time, and overlapping ones
            rows.add(
                new long[] {rnd.nextInt(4), (rnd.nextInt(12) - 3) * SLIDE, 1 + rnd.nextInt(3)});
          }
          input.add(partials(rows));
        }
        input.forEach(p.source()::pushChunk);
        if (committedEpoch > 0 && rnd.nextInt(5) == 0) {
          while (p.last().next() != null) {} // the epoch's input is processed, not committed
          store.clearUncommitted();
          crashes++;
          // the rebuilt job's emitted counts are the committed view
          view.clear();
          for (Row r : committed(store, MV_TABLE, codecs, committedEpoch)) {
            view.put(List.of(r.get(0), r.get(1)), (Long) r.get(3));
          }
          p = build(store, cache, maxDirty, view);
          epoch++;
          p.source()
              .pushBarrier(
                  new Barrier(
                      new EpochPair(Epochs.of(epoch), committedEpoch), BarrierKind.INITIAL, null));
          assertThat(pullUntilBarrier(p.last()).kind()).isEqualTo(BarrierKind.INITIAL);
          input.forEach(p.source()::pushChunk);
        }
        for (StreamChunk c : input) {
          for (int i = 0; i < c.size(); i++) {
            Row r = c.row(i);
            long pane = Temporals.timestampToMicros((java.time.LocalDateTime) r.get(1));
            panes.merge(r.get(0) + " " + pane, (Long) r.get(2), Long::sum);
          }
        }
        p.source().pushBarrier(Epochs.of(++epoch));
        Barrier b = pullUntilBarrier(p.last());
        checkpoint(store, b);
        committedEpoch = b.prev();
        assertThat(committed(store, MV_TABLE, codecs, b.prev()))
            .as("seed %s epoch %s", seed, e)
            .containsExactlyInAnyOrderElementsOf(batch(panes));
      }
    }
    return crashes;
  }

  /** Per group and window holding a pane with a count: the window's count. */
  private static List<Row> batch(Map<String, Long> panes) {
    Map<List<Long>, Long> windows = new TreeMap<>((a, b) -> a.toString().compareTo(b.toString()));
    panes.forEach(
        (k, n) -> {
          String[] v = k.split(" ");
          long g = Long.parseLong(v[0]);
          long pane = Long.parseLong(v[1]);
          for (long ws = pane - SIZE + SLIDE; ws <= pane; ws += SLIDE) {
            windows.merge(List.of(g, ws), n, Long::sum);
          }
        });
    List<Row> out = new ArrayList<>();
    windows.forEach(
        (k, n) ->
            out.add(
                Row.of(
                    k.get(0),
                    Temporals.microsToTimestamp(k.get(1)),
                    Temporals.microsToTimestamp(k.get(1) + SIZE),
                    n)));
    return out;
  }

  @Test
  void aPartialOfANullPaneIsInNoWindow() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "timestamp", "bigint");
      src.pushBarrier(Epochs.of(1))
          .pushChunk("+ 1 . 4\n+ 1 1970-01-01T00:00:02 3")
          .pushBarrier(Epochs.of(2));
      List<String> out =
          Drain.pretty(Drain.all(new PaneHopAggExecutor(INFO, src, plan(), store, 16, 20, 16)));
      // the five windows holding the 2 s pane, each counting its 3 rows; the NULL pane adds none
      assertThat(out.get(1).lines().filter(l -> l.startsWith("+")).count()).isEqualTo(5);
      assertThat(out.get(1)).doesNotContain(" 4 ").doesNotContain(" 7");
    }
  }

  @Test
  void aRetractionOrANonPositivePartialFailsNamingTheRow() {
    for (String bad : List.of("- 1 1970-01-01T00:00:02 3", "+ 1 1970-01-01T00:00:02 0")) {
      try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
        MockSource src = MockSource.of("bigint", "timestamp", "bigint");
        src.pushBarrier(Epochs.of(1)).pushChunk(bad).pushBarrier(Epochs.of(2));
        PaneHopAggExecutor agg = new PaneHopAggExecutor(INFO, src, plan(), store, 16, 20, 16);
        assertThatThrownBy(() -> Drain.all(agg)).hasMessageContaining("(1, 1970-01-01T00:00:02");
      }
    }
  }
}

package dev.tideway.compute.executor;

import static dev.tideway.compute.executor.HashAggExecutor.DEFAULT_FILTER_BITS;
import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HashAggExecutorTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 9, "HashAgg");

  static TableDesc table(int id) {
    return table(id, false);
  }

  /** A state table desc with id {@code id}, declared append-only when {@code appendOnly}. */
  static TableDesc table(int id, boolean appendOnly) {
    return new TableDesc(
        id,
        "t" + id,
        List.of(new ColumnDesc(0, "k", DataType.BIGINT)),
        List.of(ColumnOrder.asc(0)),
        List.of(0),
        appendOnly,
        false);
  }

  /** group by $0: count(*), sum($1), min($1), max($1), avg($1). */
  static StreamNode.HashAgg plan(List<Integer> groupKeys) {
    ExprNode.InputRef v = new ExprNode.InputRef(1, DataType.BIGINT);
    return new StreamNode.HashAgg(
        groupKeys,
        List.of(
            AggCall.countStar(),
            AggCall.of(AggKind.SUM, v, DataType.DECIMAL),
            AggCall.of(AggKind.MIN, v, DataType.BIGINT),
            AggCall.of(AggKind.MAX, v, DataType.BIGINT),
            AggCall.of(AggKind.AVG, v, DataType.DECIMAL)),
        table(10),
        Map.of(2, table(11), 3, table(12)));
  }

  static List<String> run(Storage store, MockSource src, StreamNode.HashAgg plan, int cache) {
    return Drain.pretty(Drain.all(new HashAggExecutor(INFO, src, plan, store, cache))).stream()
        .map(
            s ->
                s.startsWith("B") ? "B" + Epochs.physicalMillis(Long.parseLong(s.substring(1))) : s)
        .toList();
  }

  @Test
  void emitsGroupChangesOnBarriersAndRetractsMinMaxThroughTheValueMultiset() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1))
          .pushChunk(
              """
              + 1 10
              + 1 30
              + 2 5
              + 1 20
              + 2 .
              """)
          .pushBarrier(Epochs.of(2))
          .pushChunk(
              """
              -  1 10
              U- 2 5
              U+ 2 7
              """)
          .pushBarrier(Epochs.of(3))
          .pushChunk(
              """
              - 2 7
              - 2 .
              + 3 1 D
              """)
          .pushBarrier(Epochs.of(4));
      assertThat(run(store, src, plan(List.of(0)), 100))
          .containsExactly(
              "B1",
              chunk(
                  """
                  bigint bigint numeric bigint bigint numeric
                  + 1 3 60 10 30 20.0000000000000000
                  + 2 2 5  5  5  5.0000000000000000
                  """),
              "B2",
              chunk(
                  """
                  bigint bigint numeric bigint bigint numeric
                  U- 1 3 60 10 30 20.0000000000000000
                  U+ 1 2 50 20 30 25.0000000000000000
                  U- 2 2 5  5  5  5.0000000000000000
                  U+ 2 2 7  7  7  7.0000000000000000
                  """),
              "B3",
              chunk(
                  """
                  bigint bigint numeric bigint bigint numeric
                  - 2 2 7 7 7 7.0000000000000000
                  """),
              "B4");
    }
  }

  /**
   * Once {@code maxDirtyGroups} groups changed, the changed groups are written and their changes
   * emitted before the barrier; a group changed again emits an update at the next flush, relative
   * to what it emitted early.
   */
  @Test
  void flushesItsChangesBeforeTheBarrierOnceMaxDirtyGroupsChanged() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1))
          .pushChunk("+ 1 10\n+ 1 30\n+ 2 5")
          .pushChunk("+ 1 20\n+ 3 1")
          .pushChunk("+ 1 40")
          .pushBarrier(Epochs.of(2));
      List<String> out =
          Drain.pretty(
              Drain.all(
                  new HashAggExecutor(
                      INFO, src, plan(List.of(0)), store, 100, DEFAULT_FILTER_BITS, 1000, 3)));
      assertThat(out.subList(1, out.size()))
          .containsExactly(
              chunk(
                  """
                  bigint bigint numeric bigint bigint numeric
                  + 1 3 60 10 30 20.0000000000000000
                  + 2 1 5  5  5  5.0000000000000000
                  + 3 1 1  1  1  1.0000000000000000
                  """),
              chunk(
                  """
                  bigint bigint numeric bigint bigint numeric
                  U- 1 3 60  10 30 20.0000000000000000
                  U+ 1 4 100 10 40 25.0000000000000000
                  """),
              out.get(out.size() - 1));
      assertThat(out.get(out.size() - 1)).startsWith("B");
    }
  }

  /**
   * {@code flushRows} rows that changed few groups (one group per 16 rows or fewer) flush early: an
   * aggregation of few hot groups passes its changes on within the epoch; as many rows over many
   * groups wait for the barrier.
   */
  @Test
  void flushesEarlyAfterFlushRowsRowsOnlyWhenTheyChangedFewGroups() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      StringBuilder hot = new StringBuilder();
      StringBuilder spread = new StringBuilder();
      for (int i = 0; i < 32; i++) {
        hot.append("+ 1 ").append(i).append('\n');
        spread.append("+ ").append(10 + i).append(" 1\n");
      }
      src.pushBarrier(Epochs.of(1))
          .pushChunk(spread.toString())
          .pushChunk(hot.toString())
          .pushBarrier(Epochs.of(2));
      List<String> out =
          Drain.pretty(
              Drain.all(
                  new HashAggExecutor(
                      INFO, src, plan(List.of(0)), store, 100, DEFAULT_FILTER_BITS, 32, 1000)));
      // the 32 rows over 32 groups did not flush; with the 32 hot rows, 64 rows changed 33 groups:
      // still more than one per 16 rows, so everything waits for the barrier
      assertThat(out).hasSize(3);
      assertThat(out.get(1).lines().count()).isEqualTo(1 + 33);
    }
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      StringBuilder hot = new StringBuilder();
      for (int i = 0; i < 32; i++) {
        hot.append("+ 1 ").append(i).append('\n');
      }
      MockSource src2 = MockSource.of("bigint", "bigint");
      src2.pushBarrier(Epochs.of(1))
          .pushChunk(hot.toString())
          .pushChunk(hot.toString())
          .pushBarrier(Epochs.of(2));
      List<String> out2 =
          Drain.pretty(
              Drain.all(
                  new HashAggExecutor(
                      INFO, src2, plan(List.of(0)), store, 100, DEFAULT_FILTER_BITS, 32, 1000)));
      // 32 rows of one group flush at once, and the next 32 flush again as an update
      assertThat(out2).hasSize(4);
      assertThat(out2.get(1)).containsPattern("\\+ +1 +32 ");
      assertThat(out2.get(2)).containsPattern("U- +1 +32 ").containsPattern("U\\+ +1 +64 ");
    }
  }

  @Test
  void aGlobalAggregateHasOneRowFromTheFirstBarrier() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1))
          .pushBarrier(Epochs.of(2))
          .pushChunk("+ 1 4")
          .pushBarrier(Epochs.of(3))
          .pushChunk("- 1 4")
          .pushBarrier(Epochs.of(4));
      StreamNode.HashAgg global = plan(List.of());
      assertThat(run(store, src, global, 100))
          .containsExactly(
              "B1",
              chunk("bigint numeric bigint bigint numeric\n+ 0 . . . ."),
              "B2",
              chunk(
                  """
                  bigint numeric bigint bigint numeric
                  U- 0 . . . .
                  U+ 1 4 4 4 4.0000000000000000
                  """),
              "B3",
              chunk(
                  """
                  bigint numeric bigint bigint numeric
                  U- 1 4 4 4 4.0000000000000000
                  U+ 0 . . . .
                  """),
              "B4");
    }
  }

  @Test
  void groupsEvictedFromTheCacheAreReloadedFromState() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1)).pushChunk("+ 1 1\n+ 2 2\n+ 3 3").pushBarrier(Epochs.of(2));
      src.pushChunk("+ 1 9\n- 2 2").pushBarrier(Epochs.of(3));
      HashAggExecutor agg = new HashAggExecutor(INFO, src, plan(List.of(0)), store, 1);
      List<Message> out = Drain.all(agg);
      assertThat(agg.cachedGroups()).isEqualTo(1);
      assertThat(Drain.chunks(out).get(1))
          .isEqualTo(
              Chunks.parse(
                  """
                  bigint bigint numeric bigint bigint numeric
                  U- 1 1 1  1 1 1.0000000000000000
                  U+ 1 2 10 1 9 5.0000000000000000
                  -  2 1 2  2 2 2.0000000000000000
                  """));
    }
  }

  /** group by $0: max($1) with no value table, as planned over an append-only input. */
  static StreamNode.HashAgg appendOnlyMax() {
    return new StreamNode.HashAgg(
        List.of(0),
        List.of(
            AggCall.of(AggKind.MAX, new ExprNode.InputRef(1, DataType.BIGINT), DataType.BIGINT)),
        table(10),
        Map.of());
  }

  @Test
  void anAppendOnlyMaxKeepsItsValueInTheGroupRowAlone() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1)).pushChunk("+ 1 5\n+ 1 3").pushBarrier(Epochs.of(2));
      src.pushChunk("+ 1 8\n+ 1 2").pushBarrier(Epochs.of(3));
      assertThat(run(store, src, appendOnlyMax(), 100))
          .containsExactly(
              "B1",
              chunk("bigint bigint\n+ 1 5"),
              "B2",
              chunk("bigint bigint\nU- 1 5\nU+ 1 8"),
              "B3");
    }
  }

  @Test
  void anAppendOnlyMaxFailsOnARetractionNamingTheCallAndGroup() {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1)).pushChunk("+ 1 5\n- 1 5").pushBarrier(Epochs.of(2));
      assertThatThrownBy(() -> run(store, src, appendOnlyMax(), 100))
          .hasMessageContaining("MAX call 0")
          .hasMessageContaining("no value table")
          .hasMessageContaining("retracts value 5");
    }
  }

  @Test
  void aMaxWithoutValueTableFollowsUpdatesThatOnlyRaiseItsArgument() {
    // q5's max of per-auction counts: every change of a count is U- old, U+ new >= old
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      src.pushBarrier(Epochs.of(1)).pushChunk("+ 1 5\n+ 1 3\n+ 2 4").pushBarrier(Epochs.of(2));
      src.pushChunk("U- 1 3\nU+ 1 7\nU- 1 7\nU+ 1 7\nU- 2 4\nU+ 2 4").pushBarrier(Epochs.of(3));
      src.pushChunk("U- 1 5\nU+ 1 6").pushBarrier(Epochs.of(4));
      assertThat(run(store, src, appendOnlyMax(), 100))
          .containsExactly(
              "B1",
              chunk("bigint bigint\n+ 1 5\n+ 2 4"),
              "B2",
              chunk("bigint bigint\nU- 1 5\nU+ 1 7"),
              "B3",
              "B4");
    }
  }

  @Test
  void aMaxWithoutValueTableFailsOnAnUpdateThatLowersOrMovesItsArgument() {
    for (String change : List.of("U- 1 5\nU+ 1 4", "U- 1 5\nU+ 2 9", "U- 1 5\nU+ 1 .")) {
      try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
        MockSource src = MockSource.of("bigint", "bigint");
        src.pushBarrier(Epochs.of(1)).pushChunk("+ 1 5").pushBarrier(Epochs.of(2));
        src.pushChunk(change).pushBarrier(Epochs.of(3));
        assertThatThrownBy(() -> run(store, src, appendOnlyMax(), 100))
            .as(change)
            .hasMessageContaining("group (1) retracts value 5 without an update");
      }
    }
  }

  @Test
  void aTinyKeyFilterAnswersMaybeAndTheStateStillDecides() {
    // 64 filter bits over many groups and values: nearly every lookup is a false "maybe", so
    // each new group and value is read from state; results equal the big-filter run's
    for (int bits : new int[] {6, 22}) {
      try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
        MockSource src = MockSource.of("bigint", "bigint");
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 200; i++) {
          rows.append("+ ").append(i % 50).append(' ').append(i).append('\n');
        }
        src.pushBarrier(Epochs.of(1)).pushChunk(rows.toString()).pushBarrier(Epochs.of(2));
        src.pushChunk("- 7 107\n- 7 157").pushBarrier(Epochs.of(3));
        List<Message> out =
            Drain.all(new HashAggExecutor(INFO, src, plan(List.of(0)), store, 4, bits));
        assertThat(Drain.chunks(out).get(1))
            .as("filter 2^%s bits", bits)
            .isEqualTo(
                Chunks.parse(
                    """
                    bigint bigint numeric bigint bigint numeric
                    U- 7 4 328 7 157 82.0000000000000000
                    U+ 7 2 64  7 57  32.0000000000000000
                    """));
      }
    }
  }

  /**
   * An epoch that changes more groups than fit one output chunk emits them in several chunks, none
   * above the limit, every update's U-/U+ pair inside one chunk, all before the barrier.
   */
  @Test
  void emitsAManyGroupEpochInBoundedChunksBeforeTheBarrier() {
    int groups = HashAggExecutor.OUTPUT_CHUNK_ROWS * 2 + 7;
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      MockSource src = MockSource.of("bigint", "bigint");
      StringBuilder rows = new StringBuilder();
      for (int g = 0; g < groups; g++) {
        rows.append("+ ").append(g).append(" 1\n");
      }
      src.pushBarrier(Epochs.of(1))
          .pushChunk(rows.toString())
          .pushBarrier(Epochs.of(2))
          .pushChunk(rows.toString())
          .pushBarrier(Epochs.of(3));
      List<Message> out =
          Drain.all(new HashAggExecutor(INFO, src, plan(List.of(0)), store, 1 << 20));
      int barriers = 0;
      int[] rowsPerEpoch = new int[4];
      long updateDeletes = 0;
      for (Message m : out) {
        if (m instanceof dev.tideway.barrier.message.Barrier) {
          barriers++;
        } else if (m instanceof Message.Chunk c && c.chunk().cardinality() > 0) {
          assertThat(c.chunk().cardinality())
              .isLessThanOrEqualTo(HashAggExecutor.OUTPUT_CHUNK_ROWS);
          List<String> lines = Chunks.pretty(c.chunk()).lines().toList();
          assertThat(lines.stream().filter(l -> l.startsWith("U-")).count())
              .as("U- and U+ pair up inside a chunk")
              .isEqualTo(lines.stream().filter(l -> l.startsWith("U+")).count());
          rowsPerEpoch[barriers] += c.chunk().cardinality();
          updateDeletes += lines.stream().filter(l -> l.startsWith("U-")).count();
        }
      }
      assertThat(barriers).isEqualTo(3);
      assertThat(rowsPerEpoch[1]).as("inserts of epoch 1, before barrier 2").isEqualTo(groups);
      assertThat(rowsPerEpoch[2]).as("updates of epoch 2, before barrier 3").isEqualTo(2 * groups);
      assertThat(updateDeletes).as("one U-/U+ pair per group updated in epoch 2").isEqualTo(groups);
    }
  }
}

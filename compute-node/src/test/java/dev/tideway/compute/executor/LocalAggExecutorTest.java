package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LocalAggExecutorTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 12, "LocalAgg");

  private static final ExprNode.InputRef V = new ExprNode.InputRef(1, DataType.BIGINT);

  /** count(*), count($1), sum($1), min($1), max($1) as BIGINTs. */
  private static final List<AggCall> CALLS =
      List.of(
          AggCall.countStar(),
          AggCall.of(AggKind.COUNT, V, DataType.BIGINT),
          AggCall.of(AggKind.SUM, V, DataType.BIGINT),
          AggCall.of(AggKind.MIN, V, DataType.BIGINT),
          AggCall.of(AggKind.MAX, V, DataType.BIGINT));

  private static List<String> run(MockSource src, List<Integer> keys, int maxGroups) {
    return Drain.pretty(
            Drain.all(
                new LocalAggExecutor(INFO, src, new StreamNode.LocalAgg(keys, CALLS), maxGroups)))
        .stream()
        .map(
            s ->
                s.startsWith("B") ? "B" + Epochs.physicalMillis(Long.parseLong(s.substring(1))) : s)
        .toList();
  }

  @Test
  void emitsEachGroupsPartialsAsInsertsBeforeTheBarrierAndStartsOver() {
    MockSource src = MockSource.of("bigint", "bigint");
    src.pushBarrier(Epochs.of(1))
        .pushChunk("+ 1 10\n+ 2 .\n+ 1 5")
        .pushChunk("+ 1 7\n+ . 3")
        .pushBarrier(Epochs.of(2))
        .pushChunk("+ 2 4")
        .pushBarrier(Epochs.of(3));
    assertThat(run(src, List.of(0), 100))
        .containsExactly(
            "B1",
            chunk(
                """
                bigint bigint bigint bigint bigint bigint
                + 1 3 3 22 5 10
                + 2 1 0 . . .
                + . 1 1 3 3 3
                """),
            "B2",
            chunk("bigint bigint bigint bigint bigint bigint\n+ 2 1 1 4 4 4"),
            "B3");
  }

  @Test
  void flushesOnceMaxGroupsAreOpenSoMemoryStaysBounded() {
    MockSource src = MockSource.of("varchar", "bigint");
    src.pushBarrier(Epochs.of(1))
        .pushChunk("+ a 1\n+ b 2")
        .pushChunk("+ a 3")
        .pushBarrier(Epochs.of(2));
    List<String> out = run(src, List.of(0), 2);
    assertThat(out)
        .containsExactly(
            "B1",
            chunk("varchar bigint bigint bigint bigint bigint\n+ a 1 1 1 1 1\n+ b 1 1 2 2 2"),
            chunk("varchar bigint bigint bigint bigint bigint\n+ a 1 1 3 3 3"),
            "B2");
  }

  @Test
  void intArgumentsTakeTheObjectPathAndKeepTheirTypes() {
    ExprNode.InputRef i = new ExprNode.InputRef(1, DataType.INT);
    List<AggCall> calls =
        List.of(
            AggCall.of(AggKind.SUM, i, DataType.BIGINT),
            AggCall.of(AggKind.MIN, i, DataType.INT),
            AggCall.of(AggKind.MAX, i, DataType.INT));
    MockSource src = MockSource.of("bigint", "int");
    src.pushBarrier(Epochs.of(1)).pushChunk("+ 1 10\n+ 1 5\n+ 2 .").pushBarrier(Epochs.of(2));
    List<String> out =
        Drain.pretty(
                Drain.all(
                    new LocalAggExecutor(INFO, src, new StreamNode.LocalAgg(List.of(0), calls))))
            .stream()
            .filter(x -> !x.startsWith("B"))
            .toList();
    assertThat(out).containsExactly(chunk("bigint bigint int int\n+ 1 15 5 10\n+ 2 . . ."));
  }

  @Test
  void aGlobalAggregationCannotBeSplit() {
    // count(*) of no rows is 0, but a sum of no partials is NULL
    assertThatThrownBy(() -> new StreamNode.LocalAgg(List.of(), List.of(AggCall.countStar())))
        .hasMessageContaining("group keys");
  }

  @Test
  void aRetractionFailsNamingTheOperator() {
    MockSource src = MockSource.of("bigint", "bigint");
    src.pushBarrier(Epochs.of(1)).pushChunk("+ 1 10\n- 1 10").pushBarrier(Epochs.of(2));
    assertThatThrownBy(() -> run(src, List.of(0), 100))
        .hasMessageContaining("LocalAgg")
        .hasMessageContaining("append-only input");
  }

  @Test
  void avgAndDistinctCannotBeSplit() {
    assertThatThrownBy(
            () ->
                new StreamNode.LocalAgg(
                    List.of(0), List.of(AggCall.of(AggKind.AVG, V, DataType.DECIMAL))))
        .hasMessageContaining("cannot split");
  }

  /**
   * The point of the operator: LocalAgg then a HashAgg of the {@link
   * StreamNode.LocalAgg#globalCall}s emits, at every barrier, exactly what one HashAgg of the calls
   * emits over the same random append-only input (small flush bounds, NULL values and NULL keys
   * included).
   */
  @Test
  void twoPhasesEqualOneHashAggAtEveryBarrier() {
    for (long seed = 1; seed <= 20; seed++) {
      RandomSource random = RandomSource.seeded(seed);
      List<StreamChunk> chunks = new ArrayList<>();
      for (int c = 0; c < 12; c++) {
        StreamChunkBuilder b = new StreamChunkBuilder(List.of(DataType.BIGINT, DataType.BIGINT), 8);
        for (int r = random.nextInt(1, 20); r > 0; r--) {
          Long k = random.chance(0.1) ? null : (long) random.nextInt(6);
          Long v = random.chance(0.2) ? null : (long) random.nextInt(-100, 100);
          b.append(Op.INSERT, Row.of(k, v));
        }
        chunks.add(b.build());
      }
      int maxGroups = 1 + random.nextInt(6);
      assertThat(twoPhase(chunks, maxGroups))
          .as("seed %s, max groups %s", seed, maxGroups)
          .isEqualTo(onePhase(chunks));
    }
  }

  private static MockSource feed(List<StreamChunk> chunks) {
    MockSource src = MockSource.of("bigint", "bigint");
    src.pushBarrier(Epochs.of(1));
    for (int i = 0; i < chunks.size(); i++) {
      src.pushChunk(chunks.get(i));
      if (i % 3 == 2) {
        src.pushBarrier(Epochs.of(2 + i / 3));
      }
    }
    return src;
  }

  private static List<String> onePhase(List<StreamChunk> chunks) {
    StreamNode.HashAgg plan =
        new StreamNode.HashAgg(
            List.of(0), CALLS, HashAggExecutorTest.table(10), Map.of(3, table(11), 4, table(12)));
    return drain(feed(chunks), plan);
  }

  private static List<String> twoPhase(List<StreamChunk> chunks, int maxGroups) {
    List<AggCall> global = new ArrayList<>();
    for (int c = 0; c < CALLS.size(); c++) {
      global.add(StreamNode.LocalAgg.globalCall(CALLS.get(c), 1 + c));
    }
    StreamNode.HashAgg plan =
        new StreamNode.HashAgg(
            List.of(0), global, HashAggExecutorTest.table(10), Map.of(3, table(11), 4, table(12)));
    Executor local =
        new LocalAggExecutor(
            INFO, feed(chunks), new StreamNode.LocalAgg(List.of(0), CALLS), maxGroups);
    return drain(local, plan);
  }

  private static List<String> drain(Executor input, StreamNode.HashAgg plan) {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      List<String> out = new ArrayList<>();
      // one line per emitted row, the chunk boundaries (which differ between the shapes) dropped
      for (Message m : Drain.all(new HashAggExecutor(INFO, input, plan, store, 1 << 10))) {
        for (String line : Drain.pretty(List.of(m)).get(0).split("\n")) {
          if (!line.startsWith("bigint")) {
            out.add(line.startsWith("B") ? "barrier" : line);
          }
        }
      }
      return out;
    }
  }

  private static dev.tideway.common.plan.TableDesc table(int id) {
    return HashAggExecutorTest.table(id);
  }
}

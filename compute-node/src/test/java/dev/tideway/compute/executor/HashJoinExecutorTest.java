package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.types.DataType;
import dev.tideway.compute.expr.ExprErrorSink;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HashJoinExecutorTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 11, "HashJoin");

  /** left(k, a) JOIN right(k, b) ON left.k = right.k [AND a < b]. */
  static StreamNode.HashJoin plan(boolean withCondition) {
    Optional<ExprNode> cond =
        withCondition
            ? Optional.of(
                ExprNode.FunctionCall.of(
                    FunctionKind.LESS_THAN,
                    DataType.BOOLEAN,
                    new ExprNode.InputRef(1, DataType.BIGINT),
                    new ExprNode.InputRef(3, DataType.BIGINT)))
            : Optional.empty();
    return new StreamNode.HashJoin(
        JoinType.INNER,
        List.of(0),
        List.of(0),
        cond,
        HashAggExecutorTest.table(20),
        HashAggExecutorTest.table(21));
  }

  static List<String> run(MockSource l, MockSource r, boolean cond) {
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      return pretty(Drain.all(new HashJoinExecutor(INFO, l, r, plan(cond), store)));
    }
  }

  /** The messages as text, barriers as {@code B<epoch number>}. */
  static List<String> pretty(List<Message> messages) {
    return Drain.pretty(messages).stream()
        .map(
            s ->
                s.startsWith("B") ? "B" + Epochs.physicalMillis(Long.parseLong(s.substring(1))) : s)
        .toList();
  }

  @Test
  void joinsBothWaysAndRetractsOnDeleteAndUpdate() {
    MockSource l = MockSource.of("bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushChunk("+ 1 10\n+ 2 20\n+ . 30").pushBarrier(Epochs.of(2));
    r.pushBarrier(Epochs.of(1)).pushChunk("+ 1 100\n+ 1 100\n+ . 30").pushBarrier(Epochs.of(2));
    l.pushChunk("U- 1 10\nU+ 1 11").pushBarrier(Epochs.of(3));
    r.pushChunk("- 1 100\n+ 2 200").pushBarrier(Epochs.of(3));
    assertThat(run(l, r, false))
        .containsExactly(
            "B1",
            chunk("bigint bigint bigint bigint\n+ 1 10 1 100\n+ 1 10 1 100"),
            "B2",
            chunk(
                """
                bigint bigint bigint bigint
                - 1 10 1 100
                - 1 10 1 100
                + 1 11 1 100
                + 1 11 1 100
                """),
            chunk(
                """
                bigint bigint bigint bigint
                - 1 11 1 100
                + 2 20 2 200
                """),
            "B3");
  }

  @Test
  void theExtraConditionDropsJoinedRowsItRejects() {
    MockSource l = MockSource.of("bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushChunk("+ 1 10\n+ 1 50").pushBarrier(Epochs.of(2));
    r.pushBarrier(Epochs.of(1)).pushChunk("+ 1 20").pushBarrier(Epochs.of(2));
    assertThat(run(l, r, true))
        .containsExactly("B1", chunk("bigint bigint bigint bigint\n+ 1 10 1 20"), "B2");
  }

  /** left(k, a) JOIN right(k, b) ON k, the left side append-only, each side caching 1 unit. */
  static List<String> runAppendOnlyLeft(MockSource l, MockSource r) {
    StreamNode.HashJoin plan =
        new StreamNode.HashJoin(
            JoinType.INNER,
            List.of(0),
            List.of(0),
            Optional.empty(),
            HashAggExecutorTest.table(20, true),
            HashAggExecutorTest.table(21));
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      return pretty(
          Drain.all(new HashJoinExecutor(INFO, l, r, plan, store, 1, 20, ExprErrorSink.STRICT)));
    }
  }

  @Test
  void anAppendOnlySideMatchesEveryInsertedCopyAcrossEpochsAndEvictions() {
    MockSource l = MockSource.of("bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushChunk("+ 1 10\n+ 1 10\n+ 2 20").pushBarrier(Epochs.of(2));
    l.pushChunk("+ 1 10").pushBarrier(Epochs.of(3));
    l.pushBarrier(Epochs.of(4)).pushBarrier(Epochs.of(5));
    r.pushBarrier(Epochs.of(1)).pushBarrier(Epochs.of(2)).pushBarrier(Epochs.of(3));
    r.pushChunk("+ 1 100\n+ 3 300").pushBarrier(Epochs.of(4));
    r.pushChunk("- 1 100").pushBarrier(Epochs.of(5));
    assertThat(runAppendOnlyLeft(l, r))
        .containsExactly(
            "B1",
            "B2",
            "B3",
            chunk("bigint bigint bigint bigint\n+ 1 10 1 100\n+ 1 10 1 100\n+ 1 10 1 100"),
            "B4",
            chunk("bigint bigint bigint bigint\n- 1 10 1 100\n- 1 10 1 100\n- 1 10 1 100"),
            "B5");
  }

  @Test
  void aDeleteOnAnAppendOnlySideFailsNamingTheSide() {
    MockSource l = MockSource.of("bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushChunk("+ 1 10\n- 1 10").pushBarrier(Epochs.of(2));
    r.pushBarrier(Epochs.of(1)).pushBarrier(Epochs.of(2));
    assertThatThrownBy(() -> runAppendOnlyLeft(l, r))
        .hasMessageContaining("left side is append-only")
        .hasMessageContaining("1, 10");
  }

  /**
   * A change under a key with 3000 rows on the other side leaves in pieces of at most 1024
   * candidates, every match before the barrier; pairs the condition rejects are not emitted.
   */
  /**
   * 3000 left rows (1, 0..2999) under one key in epoch 1, then the right row {@code rightRow} in
   * epoch 2, joined on the key with a < b: everything the join emits.
   */
  static List<Message> hotKeyJoin(String rightRow) {
    StringBuilder rows = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      rows.append("+ 1 ").append(i).append('\n');
    }
    MockSource l = MockSource.of("bigint", "bigint");
    MockSource r = MockSource.of("bigint", "bigint");
    l.pushBarrier(Epochs.of(1)).pushChunk(rows.toString()).pushBarrier(Epochs.of(2));
    l.pushBarrier(Epochs.of(3));
    r.pushBarrier(Epochs.of(1)).pushBarrier(Epochs.of(2));
    r.pushChunk(rightRow).pushBarrier(Epochs.of(3));
    try (Storage store = StateStores.open("memory://", StorageOptions.defaults())) {
      return Drain.all(new HashJoinExecutor(INFO, l, r, plan(true), store));
    }
  }

  @Test
  void aHotKeysMatchesLeaveInBoundedChunksBeforeTheBarrier() {
    // a < b keeps the left rows 0..99: the other 2900 pairs are never built (JoinPrefilter)
    List<Message> out = hotKeyJoin("+ 1 100");
    List<StreamChunk> chunks = Drain.chunks(out);
    assertThat(chunks).hasSize(1);
    assertThat(chunks.get(0).size()).isLessThanOrEqualTo(HashJoinExecutor.OUTPUT_CHUNK_ROWS);
    assertThat(chunks.get(0).cardinality()).isEqualTo(100);
    assertThat(out.get(out.size() - 1)).isInstanceOf(Barrier.class);

    chunks = Drain.chunks(hotKeyJoin("+ 1 5000"));
    assertThat(chunks).hasSize(3);
    assertThat(chunks).allSatisfy(c -> assertThat(c.size()).isLessThanOrEqualTo(1024));
    assertThat(chunks.stream().mapToInt(StreamChunk::cardinality).sum()).isEqualTo(3000);
  }
}

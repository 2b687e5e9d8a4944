package dev.tideway.barrier.align;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.CheckedExecutor;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.executor.ScriptedExecutor;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BarrierAlignerTest {
  private static final Schema SCHEMA = Schema.ofTypes(DataType.BIGINT);

  private static Barrier barrier(long curr, long prev) {
    return Barrier.of(new EpochPair(curr, prev), BarrierKind.CHECKPOINT);
  }

  private static Message chunk() {
    return Message.of(Chunks.parse("bigint\n+ 1"));
  }

  @Test
  void barrierIsEmittedOnceWhenTheLastInputDeliversIt() {
    BarrierAligner a = new BarrierAligner("actor 7 Join", 3);
    assertThat(a.onMessage(0, barrier(2, 1))).isNull();
    assertThat(a.isBlocked(0)).isTrue();
    assertThat(a.isAligning()).isTrue();
    assertThat(a.onMessage(1, chunk())).isInstanceOf(Message.Chunk.class);
    assertThat(a.onMessage(2, barrier(2, 1))).isNull();
    assertThat(a.onMessage(1, barrier(2, 1))).isEqualTo(barrier(2, 1));
    assertThat(a.isBlocked(0) || a.isBlocked(1) || a.isBlocked(2)).isFalse();
    assertThat(a.isAligning()).isFalse();
  }

  @Test
  void aBlockedInputMustNotBePolled() {
    BarrierAligner a = new BarrierAligner("actor 7 Join", 2);
    a.onMessage(0, barrier(2, 1));
    assertThatThrownBy(() -> a.onMessage(0, chunk()))
        .hasMessageContaining("actor 7 Join: input 0 is blocked");
  }

  @Test
  void inputsMustDeliverTheSameEpoch() {
    BarrierAligner a = new BarrierAligner("actor 7 Join", 2);
    a.onMessage(0, barrier(2, 1));
    assertThatThrownBy(() -> a.onMessage(1, barrier(3, 2)))
        .hasMessageContaining("input 1 delivered barrier")
        .hasMessageContaining("but other inputs delivered");
  }

  @Test
  void singleInputAlignsAtOnce() {
    BarrierAligner a = new BarrierAligner("actor 1 Merge", 1);
    assertThat(a.onMessage(0, barrier(2, 1))).isEqualTo(barrier(2, 1));
  }

  @Test
  void mergeEmitsAllDataAndEachBarrierOnceInEpochOrder() {
    ScriptedExecutor left =
        new ScriptedExecutor(1, SCHEMA)
            .pushBarrier(2, 1)
            .pushChunk("bigint\n+ 1")
            .pushChunk("bigint\n+ 2")
            .pushBarrier(3, 2)
            .pushChunk("bigint\n+ 3");
    ScriptedExecutor right =
        new ScriptedExecutor(2, SCHEMA)
            .pushBarrier(2, 1)
            .pushBarrier(3, 2)
            .pushChunk("bigint\n+ 4")
            .pushBarrier(4, 3);
    left.pushBarrier(4, 3);
    Executor merge =
        CheckedExecutor.wrap(
            new AligningMerge(new ExecutorInfo(9, 1, "Merge"), List.of(left, right)));
    List<Long> barriers = new ArrayList<>();
    long rows = 0;
    for (Message m = merge.next(); m != null; m = merge.next()) {
      if (m instanceof Barrier b) {
        barriers.add(b.curr());
      } else if (m instanceof Message.Chunk c) {
        rows += c.chunk().cardinality();
      }
    }
    assertThat(barriers).containsExactly(2L, 3L, 4L);
    assertThat(rows).isEqualTo(4);
  }
}

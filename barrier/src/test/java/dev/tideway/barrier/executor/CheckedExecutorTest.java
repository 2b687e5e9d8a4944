package dev.tideway.barrier.executor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.check.Checks.InvariantViolation;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import org.junit.jupiter.api.Test;

class CheckedExecutorTest {
  private static final Schema SCHEMA = Schema.ofTypes(DataType.BIGINT, DataType.VARCHAR);

  private static void drain(Executor e) {
    while (e.next() != null) {}
  }

  @Test
  void aWellFormedStreamPasses() {
    ScriptedExecutor src =
        new ScriptedExecutor(4, SCHEMA)
            .pushBarrier(2, 1)
            .pushChunk("bigint varchar\n+ 1 a\nU- 2 b\nU+ 2 c\n- 3 d")
            .pushBarrier(3, 2);
    Executor checked = CheckedExecutor.wrap(src);
    assertThat(checked.next()).isInstanceOf(Barrier.class);
    assertThat(checked.next()).isInstanceOf(Message.Chunk.class);
    assertThat(checked.next()).isInstanceOf(Barrier.class);
    assertThat(checked.next()).isNull();
    assertThat(CheckedExecutor.wrap(checked)).isSameAs(checked);
  }

  @Test
  void firstMessageMustBeABarrier() {
    ScriptedExecutor src = new ScriptedExecutor(4, SCHEMA).pushChunk("bigint varchar\n+ 1 a");
    assertThatThrownBy(() -> drain(CheckedExecutor.wrap(src)))
        .isInstanceOf(InvariantViolation.class)
        .hasMessageContaining("actor 4 executor 1")
        .hasMessageContaining("first message must be a barrier");
  }

  @Test
  void barrierPrevMustEqualLastCurr() {
    ScriptedExecutor src = new ScriptedExecutor(4, SCHEMA).pushBarrier(2, 1).pushBarrier(5, 3);
    assertThatThrownBy(() -> drain(CheckedExecutor.wrap(src)))
        .hasMessageContaining("has prev 3 but the last barrier's curr was 2");
  }

  @Test
  void epochsMustRiseEvenAcrossAnInitialBarrier() {
    ScriptedExecutor src =
        new ScriptedExecutor(4, SCHEMA)
            .pushBarrier(9, 8)
            .push(Barrier.of(new EpochPair(7, 1), BarrierKind.INITIAL));
    assertThatThrownBy(() -> drain(CheckedExecutor.wrap(src)))
        .hasMessageContaining("barrier epoch 7 does not rise after 9");
  }

  @Test
  void initialBarrierMayRestartFromACommittedPrev() {
    ScriptedExecutor src =
        new ScriptedExecutor(4, SCHEMA)
            .pushBarrier(9, 8)
            .push(Barrier.of(new EpochPair(12, 8), BarrierKind.INITIAL));
    drain(CheckedExecutor.wrap(src));
  }

  @Test
  void chunksMustMatchTheSchema() {
    ScriptedExecutor src =
        new ScriptedExecutor(4, SCHEMA).pushBarrier(2, 1).pushChunk("bigint bigint\n+ 1 2");
    assertThatThrownBy(() -> drain(CheckedExecutor.wrap(src)))
        .hasMessageContaining("chunk column 1 is bigint but the schema says character varying");
  }

  @Test
  void updateDeleteMustBeFollowedByUpdateInsert() {
    ScriptedExecutor src =
        new ScriptedExecutor(4, SCHEMA)
            .pushBarrier(2, 1)
            .pushChunk("bigint varchar\nU- 1 a\n+ 2 b");
    assertThatThrownBy(() -> drain(CheckedExecutor.wrap(src)))
        .hasMessageContaining("U- at row 0 is followed by + at row 1");
  }

  @Test
  void aLoneUpdateInsertIsRejectedButHiddenRowsAreSkipped() {
    ScriptedExecutor ok =
        new ScriptedExecutor(4, SCHEMA)
            .pushBarrier(2, 1)
            .pushChunk("bigint varchar\nU- 1 a\n+ 9 z D\nU+ 1 b");
    drain(CheckedExecutor.wrap(ok));
    ScriptedExecutor bad =
        new ScriptedExecutor(4, SCHEMA).pushBarrier(2, 1).pushChunk("bigint varchar\nU+ 1 a");
    assertThatThrownBy(() -> drain(CheckedExecutor.wrap(bad)))
        .hasMessageContaining("U+ at row 0 does not follow a U-");
  }

  @Test
  void watermarksMustNameAColumnOfTheSchema() {
    ScriptedExecutor src =
        new ScriptedExecutor(4, SCHEMA)
            .pushBarrier(2, 1)
            .push(new dev.tideway.barrier.message.Watermark(0, DataType.BIGINT, 5L))
            .push(new dev.tideway.barrier.message.Watermark(1, DataType.BIGINT, 5L));
    Executor checked = CheckedExecutor.wrap(src);
    checked.next();
    checked.next();
    assertThatThrownBy(checked::next).hasMessageContaining("watermark on column 1 (bigint)");
  }
}

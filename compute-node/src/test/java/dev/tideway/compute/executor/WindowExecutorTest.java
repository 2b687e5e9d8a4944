package dev.tideway.compute.executor;

import static dev.tideway.compute.testing.Drain.chunk;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.common.types.Interval;
import dev.tideway.compute.testing.Drain;
import dev.tideway.compute.testing.MockSource;
import org.junit.jupiter.api.Test;

class WindowExecutorTest {
  static final ExecutorInfo INFO = new ExecutorInfo(1, 4, "Window");
  static final Interval TWO_S = Interval.ofMicros(2_000_000);
  static final Interval SIX_S = Interval.ofMicros(6_000_000);
  static final Interval TEN_S = Interval.ofMicros(10_000_000);

  @Test
  void tumbleAppendsWindowStartAndEnd() {
    MockSource src = MockSource.of("bigint", "timestamp");
    src.pushBarrier(1)
        .pushChunk(
            """
            +  1 '2024-01-01 00:00:09.999'
            U- 2 '2024-01-01 00:00:10'
            U+ 2 '2024-01-01 00:00:25'
            -  3 .
            """)
        .pushBarrier(2);
    assertThat(Drain.pretty(Drain.all(new TumbleWindowExecutor(INFO, src, 1, TEN_S))))
        .containsExactly(
            "B1",
            chunk(
                """
                   bigint timestamp timestamp timestamp
                +  1 '2024-01-01 00:00:09.999' '2024-01-01 00:00:00' '2024-01-01 00:00:10'
                U- 2 '2024-01-01 00:00:10' '2024-01-01 00:00:10' '2024-01-01 00:00:20'
                U+ 2 '2024-01-01 00:00:25' '2024-01-01 00:00:20' '2024-01-01 00:00:30'
                -  3 . . .
                """),
            "B2");
  }

  @Test
  void hopEmitsEachRowOncePerWindowAndSplitsUpdates() {
    MockSource src = MockSource.of("bigint", "timestamp");
    src.pushBarrier(1)
        .pushChunk(
            """
            +  1 '2024-01-01 00:00:05'
            U- 1 '2024-01-01 00:00:05'
            U+ 1 '2024-01-01 00:00:06'
            +  2 .
            +  3 '2024-01-01 00:00:01' D
            """)
        .pushBarrier(2);
    assertThat(Drain.pretty(Drain.all(new HopWindowExecutor(INFO, src, 1, TWO_S, SIX_S))))
        .containsExactly(
            "B1",
            chunk(
                """
                  bigint timestamp timestamp timestamp
                + 1 '2024-01-01 00:00:05' '2024-01-01 00:00:00' '2024-01-01 00:00:06'
                + 1 '2024-01-01 00:00:05' '2024-01-01 00:00:02' '2024-01-01 00:00:08'
                + 1 '2024-01-01 00:00:05' '2024-01-01 00:00:04' '2024-01-01 00:00:10'
                - 1 '2024-01-01 00:00:05' '2024-01-01 00:00:00' '2024-01-01 00:00:06'
                - 1 '2024-01-01 00:00:05' '2024-01-01 00:00:02' '2024-01-01 00:00:08'
                - 1 '2024-01-01 00:00:05' '2024-01-01 00:00:04' '2024-01-01 00:00:10'
                + 1 '2024-01-01 00:00:06' '2024-01-01 00:00:02' '2024-01-01 00:00:08'
                + 1 '2024-01-01 00:00:06' '2024-01-01 00:00:04' '2024-01-01 00:00:10'
                + 1 '2024-01-01 00:00:06' '2024-01-01 00:00:06' '2024-01-01 00:00:12'
                """),
            "B2");
  }

  @Test
  void hopRejectsASizeThatIsNotAMultipleOfTheSlide() {
    MockSource src = MockSource.of("timestamp");
    assertThatThrownBy(
            () -> new HopWindowExecutor(INFO, src, 0, Interval.ofMicros(4_000_000), TEN_S))
        .hasMessageContaining("must be a multiple of the slide");
  }
}

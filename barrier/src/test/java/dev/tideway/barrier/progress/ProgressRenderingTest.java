package dev.tideway.barrier.progress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressRenderingTest {
  @Test
  void durationsLookLikeRustDurationDebug() {
    assertThat(ProgressRendering.duration(0)).isEqualTo("0ns");
    assertThat(ProgressRendering.duration(350)).isEqualTo("350ms");
    assertThat(ProgressRendering.duration(1200)).isEqualTo("1.2s");
    assertThat(ProgressRendering.duration(61_000)).isEqualTo("61s");
    assertThat(ProgressRendering.duration(1_234)).isEqualTo("1.234s");
  }
}

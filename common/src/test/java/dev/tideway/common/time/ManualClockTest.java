package dev.tideway.common.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.random.RandomSource;
import org.junit.jupiter.api.Test;

class ManualClockTest {
  @Test
  void sleepingAdvancesTimeInsteadOfBlocking() {
    ManualClock clock = new ManualClock(1_000);
    clock.sleepMillis(250);
    assertThat(clock.currentTimeMillis()).isEqualTo(1_250);
    assertThat(clock.nanoTime()).isEqualTo(1_250_000_000L);
    assertThatThrownBy(() -> clock.advanceMillis(-1)).hasMessageContaining("only moves forward");
  }

  @Test
  void sameSeedReplaysTheSameSequence() {
    RandomSource a = RandomSource.seeded(42);
    RandomSource b = RandomSource.seeded(42);
    for (int i = 0; i < 100; i++) {
      assertThat(a.nextLong()).isEqualTo(b.nextLong());
    }
    assertThat(a.split().nextLong()).isEqualTo(b.split().nextLong());
    assertThat(a.seed()).isEqualTo(42);
  }
}

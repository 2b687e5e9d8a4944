package dev.tideway.barrier.epoch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.time.ManualClock;
import org.junit.jupiter.api.Test;

class EpochTest {
  @Test
  void encodesPhysicalMillisSinceBaseShiftedBy16() {
    long e = Epoch.fromUnixMillis(Epoch.BASE_UNIX_MS + 1234);
    assertThat(e).isEqualTo(1234L << 16);
    assertThat(Epoch.physicalMs(e)).isEqualTo(1234);
    assertThat(Epoch.unixMillis(e)).isEqualTo(Epoch.BASE_UNIX_MS + 1234);
  }

  @Test
  void nextIsStrictlyIncreasingEvenWhenTheClockStandsStill() {
    ManualClock clock = new ManualClock(Epoch.BASE_UNIX_MS + 10_000);
    long e1 = Epoch.now(clock).value();
    long e2 = Epoch.next(e1, clock);
    long e3 = Epoch.next(e2, clock);
    assertThat(e2).isGreaterThan(e1);
    assertThat(e3).isGreaterThan(e2);
    assertThat(Epoch.physicalMs(e3) - Epoch.physicalMs(e1)).isEqualTo(2);
  }

  @Test
  void nextTakesTheClockWhenItMovedFurther() {
    ManualClock clock = new ManualClock(Epoch.BASE_UNIX_MS + 10_000);
    Epoch e1 = Epoch.now(clock);
    clock.advanceMillis(250);
    assertThat(e1.next(clock).physicalMs() - e1.physicalMs()).isEqualTo(250);
  }

  @Test
  void pairNeedsCurrAbovePrev() {
    assertThatThrownBy(() -> new EpochPair(5, 5)).hasMessageContaining("curr=5 prev=5");
    assertThat(new EpochPair(7, 5).advance(9)).isEqualTo(new EpochPair(9, 7));
  }

  @Test
  void timeBeforeTheBaseIsRejected() {
    assertThatThrownBy(() -> Epoch.fromUnixMillis(0)).hasMessageContaining("before the epoch base");
  }
}

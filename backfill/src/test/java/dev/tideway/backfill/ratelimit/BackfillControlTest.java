package dev.tideway.backfill.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.time.ManualClock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The token bucket holds the configured rate; 0 and Pause stop reads; changes apply at once. */
class BackfillControlTest {
  @Test
  void rateIsHeldAndThrottleChangesIt() {
    ManualClock clock = new ManualClock(1_000_000);
    BackfillControl c = new BackfillControl(7, clock, 100);
    long read = 0;
    for (int i = 0; i < 100; i++) { // 10 s in 100 ms steps
      clock.advanceMillis(100);
      long n = c.available();
      c.consume(n);
      read += n;
    }
    assertThat(read).isBetween(990L, 1100L);
    c.onBarrier(barrier(new Mutation.Throttle(Map.of(7, 0L))));
    clock.advanceMillis(1000);
    assertThat(c.available()).isZero();
    assertThat(c.mayRead()).isFalse();
    c.onBarrier(barrier(new Mutation.Throttle(Map.of(7, Mutation.Throttle.UNLIMITED))));
    assertThat(c.available()).isEqualTo(Long.MAX_VALUE);
    c.onBarrier(barrier(new Mutation.Pause()));
    assertThat(c.available()).isZero();
    c.onBarrier(new Barrier(new EpochPair(5, 4), BarrierKind.BARRIER, new Mutation.Resume()));
    assertThat(c.mayRead()).isTrue();
  }

  private static Barrier barrier(Mutation m) {
    return new Barrier(new EpochPair(3, 2), BarrierKind.CHECKPOINT, m);
  }
}

package dev.tideway.compute.executor.source;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateLimiterTest {
  static final long SECOND = 1_000_000_000L;

  @Test
  void allowsTheRateOverTimeWithASmallBurst() {
    RateLimiter l = new RateLimiter(1000);
    long emitted = 0;
    for (long t = 0; t <= 10 * SECOND; t += SECOND / 100) {
      long n = l.available(t);
      l.consume(n);
      emitted += n;
    }
    assertThat(emitted).isBetween(10_000L, 10_100L);
    assertThat(l.available(10 * SECOND + 1)).isZero();
    assertThat(l.nanosUntilAvailable()).isBetween(1L, SECOND / 1000);
  }

  @Test
  void zeroPausesAndUnlimitedNeverWaits() {
    RateLimiter l = new RateLimiter(0);
    l.available(0);
    l.consume(l.available(0));
    assertThat(l.available(SECOND)).isLessThanOrEqualTo(1);
    l.consume(l.available(SECOND));
    assertThat(l.available(5 * SECOND)).isZero();
    assertThat(l.nanosUntilAvailable()).isEqualTo(Long.MAX_VALUE);
    l.setRate(RateLimiter.UNLIMITED);
    assertThat(l.available(5 * SECOND)).isEqualTo(Long.MAX_VALUE);
    assertThat(l.nanosUntilAvailable()).isZero();
  }
}

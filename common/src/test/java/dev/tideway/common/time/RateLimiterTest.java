package dev.tideway.common.time;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.RateLimiter.Burst;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
  static final long SECOND = 1_000_000_000L;

  @Test
  void aTenthOfASecondBurstAllowsTheRateOverTimeWithASmallBurst() {
    RateLimiter l = new RateLimiter(1000, Burst.TENTH_OF_A_SECOND, 0);
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
    RateLimiter l = new RateLimiter(0, Burst.TENTH_OF_A_SECOND, 0);
    l.available(0);
    l.consume(l.available(0));
    assertThat(l.available(SECOND)).isLessThanOrEqualTo(1);
    l.consume(l.available(SECOND));
    assertThat(l.available(5 * SECOND)).isZero();
    assertThat(l.nanosUntilAvailable()).isEqualTo(Long.MAX_VALUE);
    l.setRate(RateLimiter.UNLIMITED, 5 * SECOND);
    assertThat(l.available(5 * SECOND)).isEqualTo(Long.MAX_VALUE);
    assertThat(l.nanosUntilAvailable()).isZero();
  }

  @Test
  void aOneSecondBurstStartsEmptyBanksOneSecondAndRefillsAnOverdraftFirst() {
    RateLimiter l = new RateLimiter(100, Burst.ONE_SECOND, 0);
    assertThat(l.available(0)).isZero();
    assertThat(l.available(SECOND / 2)).isEqualTo(50);
    assertThat(l.available(10 * SECOND)).isEqualTo(100); // one second banked, no more
    l.consume(150); // one batch may overdraw
    assertThat(l.available(10 * SECOND + SECOND / 10)).isZero();
    assertThat(l.available(11 * SECOND)).isEqualTo(50);
  }

  @Test
  void aNewRateAppliesFromWhenItIsSet() {
    RateLimiter l = new RateLimiter(100, Burst.ONE_SECOND, 0);
    l.setRate(1000, SECOND / 10); // the first tenth of a second earned 10 rows at 100/s
    assertThat(l.available(SECOND / 10)).isEqualTo(10);
    assertThat(l.available(SECOND / 5)).isEqualTo(110);
    l.setRate(20, SECOND / 5); // the bank is clipped to the new limit's second
    assertThat(l.available(SECOND / 5)).isEqualTo(20);
  }

  @Test
  void aLimitReplacingUnlimitedStartsAsTheBurstSays() {
    RateLimiter source = new RateLimiter(RateLimiter.UNLIMITED, Burst.TENTH_OF_A_SECOND, 0);
    source.setRate(1000, SECOND);
    assertThat(source.available(SECOND)).isEqualTo(100);
    RateLimiter backfill = new RateLimiter(RateLimiter.UNLIMITED, Burst.ONE_SECOND, 0);
    backfill.setRate(1000, SECOND);
    assertThat(backfill.available(SECOND)).isZero();
  }
}

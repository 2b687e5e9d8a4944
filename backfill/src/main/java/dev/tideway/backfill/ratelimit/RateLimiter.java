package dev.tideway.backfill.ratelimit;

import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;

/**
 * A token bucket over snapshot rows: {@code rowsPerSecond} tokens a second, at most one second's
 * worth banked. {@code 0} stops snapshot reads; {@link Mutation.Throttle#UNLIMITED} removes the
 * limit. A read may overdraw by one batch (the bucket goes negative and refills first), so the
 * long-run rate holds. Time comes from the injected {@link Clock}.
 *
 * <p>Confined to the backfill's actor thread.
 */
public final class RateLimiter {
  private final Clock clock;
  private long rowsPerSecond;
  private double tokens;
  private long lastNanos;

  public RateLimiter(Clock clock, long rowsPerSecond) {
    this.clock = Checks.checkNotNull(clock, "clock");
    this.lastNanos = clock.nanoTime();
    setRate(rowsPerSecond);
  }

  /** The limit in rows per second; {@code -1} is unlimited, {@code 0} paused. */
  public long rate() {
    return rowsPerSecond;
  }

  public boolean unlimited() {
    return rowsPerSecond == Mutation.Throttle.UNLIMITED;
  }

  /** Changes the limit; the bank is clipped to the new limit. */
  public void setRate(long rowsPerSecond) {
    Checks.checkArgument(
        rowsPerSecond >= 0 || rowsPerSecond == Mutation.Throttle.UNLIMITED,
        "rate limit must be >= 0 or UNLIMITED, got %s",
        rowsPerSecond);
    refill();
    this.rowsPerSecond = rowsPerSecond;
    tokens = rowsPerSecond <= 0 ? Math.min(tokens, 0) : Math.min(tokens, rowsPerSecond);
  }

  /** Rows that may be read now (Long.MAX_VALUE when unlimited, 0 when none). */
  public long available() {
    if (unlimited()) {
      return Long.MAX_VALUE;
    }
    refill();
    return tokens >= 1 ? (long) tokens : 0;
  }

  /** Charges {@code rows} just read. */
  public void consume(long rows) {
    if (!unlimited()) {
      tokens -= rows;
    }
  }

  private void refill() {
    long now = clock.nanoTime();
    long elapsed = now - lastNanos;
    lastNanos = now;
    if (rowsPerSecond > 0 && elapsed > 0) {
      tokens = Math.min(rowsPerSecond, tokens + rowsPerSecond * (elapsed / 1e9));
    }
  }
}

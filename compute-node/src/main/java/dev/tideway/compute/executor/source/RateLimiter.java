package dev.tideway.compute.executor.source;

import dev.tideway.common.check.Checks;

/**
 * A token bucket of rows per second, decided purely from the times it is given (the caller reads
 * its clock): {@link #available} rows may be emitted now, {@link #consume} spends them, {@link
 * #nanosUntilAvailable} says how long to wait for the next one. The bucket holds at most a tenth of
 * a second of rows (at least one), so an idle source cannot burst far above the rate.
 *
 * <p>{@link #UNLIMITED} never limits; a rate of 0 pauses. Not thread-safe: owned by a source.
 */
public final class RateLimiter {
  public static final long UNLIMITED = -1;

  private long rowsPerSecond;
  private double tokens;
  private long lastNanos;
  private boolean started;

  public RateLimiter(long rowsPerSecond) {
    setRate(rowsPerSecond);
  }

  /** Changes the rate (a {@code Throttle} mutation); tokens already earned are capped to it. */
  public void setRate(long rowsPerSecond) {
    Checks.checkArgument(
        rowsPerSecond >= 0 || rowsPerSecond == UNLIMITED,
        "rate must be >= 0 rows/s or UNLIMITED, got %s",
        rowsPerSecond);
    this.rowsPerSecond = rowsPerSecond;
    tokens = Math.min(tokens, capacity());
  }

  public long rate() {
    return rowsPerSecond;
  }

  private double capacity() {
    return Math.max(1.0, rowsPerSecond / 10.0);
  }

  /** Rows that may be emitted at {@code nowNanos}. */
  public long available(long nowNanos) {
    if (rowsPerSecond == UNLIMITED) {
      return Long.MAX_VALUE;
    }
    if (!started) {
      started = true;
      lastNanos = nowNanos;
      tokens = capacity();
    }
    long elapsed = Math.max(0, nowNanos - lastNanos);
    tokens = Math.min(capacity(), tokens + elapsed * (rowsPerSecond / 1e9));
    lastNanos = nowNanos;
    return (long) tokens;
  }

  /** Spends {@code rows} tokens (after {@link #available} allowed them). */
  public void consume(long rows) {
    if (rowsPerSecond != UNLIMITED) {
      tokens -= rows;
    }
  }

  /** How long until one more row is allowed; {@code Long.MAX_VALUE} while paused (rate 0). */
  public long nanosUntilAvailable() {
    if (rowsPerSecond == UNLIMITED || tokens >= 1) {
      return 0;
    }
    if (rowsPerSecond == 0) {
      return Long.MAX_VALUE;
    }
    return (long) Math.ceil((1 - tokens) * 1e9 / rowsPerSecond);
  }
}

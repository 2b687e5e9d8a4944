package dev.tideway.common.time;

import dev.tideway.common.check.Checks;

/**
 * A token bucket of rows per second, the one rate limiter: sources limit the rows they emit with
 * it, backfills the snapshot rows they read. It decides purely from the times it is given (the
 * caller reads its {@link Clock}): {@link #available} rows may be read now, {@link #consume} spends
 * them, {@link #nanosUntilAvailable} says how long until the next one. A caller may overdraw by one
 * batch (the bucket goes negative and refills first), so the long-run rate holds.
 *
 * <p>How much it banks is its {@link Burst}. {@link #UNLIMITED} never limits; a rate of 0 stops
 * (beyond what {@link Burst#minRows} lets a bucket bank). A new rate applies from the moment it is
 * set: the time before it earns rows at the old rate.
 *
 * <p>Not thread-safe: owned by one actor.
 */
public final class RateLimiter {
  /** No limit (the value of a {@code Throttle} mutation that removes an actor's limit). */
  public static final long UNLIMITED = -1;

  /**
   * How much a bucket banks: {@code max(minRows, rowsPerSecond / perSecond)} rows, that is the rows
   * of {@code 1 / perSecond} of a second, at least {@code minRows}. A new bucket, and one whose
   * limit replaces {@link #UNLIMITED}, starts full when {@code startsFull}, else empty.
   */
  public record Burst(int perSecond, double minRows, boolean startsFull) {
    /** One second's rows, starting empty: backfill snapshot reads. */
    public static final Burst ONE_SECOND = new Burst(1, 0, false);

    /**
     * A tenth of a second's rows, at least one, starting full: sources, so an idle source cannot
     * burst far above its rate (and a source whose rate is 0 from the start may emit one row).
     */
    public static final Burst TENTH_OF_A_SECOND = new Burst(10, 1, true);

    public Burst {
      Checks.checkArgument(perSecond >= 1, "a burst of 1/%s s", perSecond);
      Checks.checkArgument(minRows >= 0, "a burst of at least %s rows", minRows);
    }
  }

  private final Burst burst;
  private long rowsPerSecond;
  private double tokens;
  private long lastNanos;

  /** A bucket of {@code rowsPerSecond} ({@link #UNLIMITED} or {@code >= 0}) at {@code nowNanos}. */
  public RateLimiter(long rowsPerSecond, Burst burst, long nowNanos) {
    this.burst = Checks.checkNotNull(burst, "burst");
    this.rowsPerSecond = checkRate(rowsPerSecond);
    this.lastNanos = nowNanos;
    this.tokens = burst.startsFull() ? capacity() : 0;
  }

  private static long checkRate(long rowsPerSecond) {
    Checks.checkArgument(
        rowsPerSecond >= 0 || rowsPerSecond == UNLIMITED,
        "rate limit must be >= 0 rows/s or UNLIMITED, got %s",
        rowsPerSecond);
    return rowsPerSecond;
  }

  /** The limit in rows per second; {@link #UNLIMITED}, or {@code 0} when stopped. */
  public long rate() {
    return rowsPerSecond;
  }

  public boolean unlimited() {
    return rowsPerSecond == UNLIMITED;
  }

  /**
   * Changes the limit at {@code nowNanos} (a {@code Throttle} mutation): the time until now earns
   * rows at the old rate, then the bank is clipped to the new limit's.
   */
  public void setRate(long rowsPerSecond, long nowNanos) {
    checkRate(rowsPerSecond);
    refill(nowNanos);
    boolean wasUnlimited = unlimited();
    this.rowsPerSecond = rowsPerSecond;
    tokens =
        wasUnlimited && !unlimited() && burst.startsFull()
            ? capacity()
            : Math.min(tokens, capacity());
  }

  /** Rows that may be read at {@code nowNanos} ({@code Long.MAX_VALUE} when unlimited). */
  public long available(long nowNanos) {
    if (unlimited()) {
      return Long.MAX_VALUE;
    }
    refill(nowNanos);
    return tokens >= 1 ? (long) tokens : 0;
  }

  /** Charges {@code rows} just read. */
  public void consume(long rows) {
    if (!unlimited()) {
      tokens -= rows;
    }
  }

  /** How long until one more row is allowed; {@code Long.MAX_VALUE} while stopped (rate 0). */
  public long nanosUntilAvailable() {
    if (unlimited() || tokens >= 1) {
      return 0;
    }
    if (rowsPerSecond == 0) {
      return Long.MAX_VALUE;
    }
    return (long) Math.ceil((1 - tokens) * 1e9 / rowsPerSecond);
  }

  private double capacity() {
    return Math.max(burst.minRows(), rowsPerSecond / (double) burst.perSecond());
  }

  private void refill(long nowNanos) {
    long elapsed = nowNanos - lastNanos;
    lastNanos = nowNanos;
    if (rowsPerSecond > 0 && elapsed > 0) {
      tokens = Math.min(capacity(), tokens + rowsPerSecond * (elapsed / 1e9));
    }
  }
}

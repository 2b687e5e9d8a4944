package dev.tideway.common.time;

import dev.tideway.common.check.Checks;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that only moves when told to. {@link #sleepMillis} advances it instead of blocking, so a
 * simulation that sleeps runs instantly and deterministically. Thread-safe.
 */
public final class ManualClock implements Clock {
  private final AtomicLong nowNanos;

  public ManualClock(long startMillis) {
    this.nowNanos = new AtomicLong(Math.multiplyExact(startMillis, 1_000_000L));
  }

  @Override
  public long currentTimeMillis() {
    return nowNanos.get() / 1_000_000L;
  }

  @Override
  public long nanoTime() {
    return nowNanos.get();
  }

  @Override
  public void sleepMillis(long millis) {
    advanceMillis(millis);
  }

  /** Moves time forward; time never goes back. */
  public void advanceMillis(long millis) {
    Checks.checkArgument(millis >= 0, "time only moves forward, got %s ms", millis);
    nowNanos.addAndGet(Math.multiplyExact(millis, 1_000_000L));
  }

  /** Moves time forward by nanoseconds. */
  public void advanceNanos(long nanos) {
    Checks.checkArgument(nanos >= 0, "time only moves forward, got %s ns", nanos);
    nowNanos.addAndGet(nanos);
  }
}

package dev.tideway.common.time;

/**
 * The one source of time for production code. Direct calls to {@code System.currentTimeMillis()},
 * {@code System.nanoTime()} and {@code Thread.sleep} are banned outside this package (the module
 * boundary tests enforce it), so tests and simulations can drive time with {@link ManualClock}.
 */
public interface Clock {
  /** Wall-clock milliseconds since the Unix epoch. */
  long currentTimeMillis();

  /** A monotonic nanosecond counter for measuring durations. */
  long nanoTime();

  /** Blocks the calling thread for {@code millis} of this clock's time. */
  void sleepMillis(long millis) throws InterruptedException;

  /** The system clock. */
  static Clock system() {
    return SystemClock.INSTANCE;
  }
}

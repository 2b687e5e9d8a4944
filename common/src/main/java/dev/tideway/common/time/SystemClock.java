package dev.tideway.common.time;

/** The real clock; the only place production code reads the system time. */
final class SystemClock implements Clock {
  static final SystemClock INSTANCE = new SystemClock();

  private SystemClock() {}

  @Override
  public long currentTimeMillis() {
    return System.currentTimeMillis();
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public void sleepMillis(long millis) throws InterruptedException {
    Thread.sleep(millis);
  }
}

package dev.tideway.common.exec;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one place threads and pools are made (direct use of {@code java.util.concurrent.Executors} is
 * banned by the boundary tests): every thread is named after its role, so a thread dump reads like
 * the architecture, and uncaught exceptions are never lost silently.
 */
public final class Threads {
  private Threads() {}

  /** A factory of threads named {@code prefix-N}. */
  public static ThreadFactory named(String prefix, boolean daemon) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
      t.setDaemon(daemon);
      return t;
    };
  }

  /** A fixed pool of {@code threads} daemon threads named {@code prefix-N}, unbounded queue. */
  public static ExecutorService fixedPool(String prefix, int threads) {
    return new ThreadPoolExecutor(
        threads,
        threads,
        0L,
        TimeUnit.MILLISECONDS,
        new LinkedBlockingQueue<>(),
        named(prefix, true));
  }

  /** A single daemon thread named {@code name-1} that runs tasks in submission order. */
  public static ExecutorService singleThread(String name) {
    return fixedPool(name, 1);
  }

  /** A scheduler with one daemon thread named {@code name-1}. */
  public static ScheduledExecutorService scheduler(String name) {
    ScheduledThreadPoolExecutor s = new ScheduledThreadPoolExecutor(1, named(name, true));
    s.setRemoveOnCancelPolicy(true);
    return s;
  }
}

package dev.tideway.cli.cluster;

import dev.tideway.common.exec.Threads;
import dev.tideway.storage.api.StateStore;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a follower's state store at the versions the meta leader commits: refreshes it every {@link
 * #INTERVAL_MS} on one daemon thread. A failed refresh is logged and retried next round.
 */
final class StoreFollower {
  private static final Logger LOG = LoggerFactory.getLogger(StoreFollower.class);
  static final long INTERVAL_MS = 100;

  private StoreFollower() {}

  /** Starts following; close the result to stop. */
  static AutoCloseable start(StateStore store) {
    ScheduledExecutorService follow = Threads.scheduler("storage-follow");
    follow.scheduleWithFixedDelay(
        () -> {
          try {
            store.refresh(0);
          } catch (RuntimeException e) {
            // the cause says why (an object missing or unreadable); the next round retries
            LOG.warn(
                "could not follow the committed version: {}{}",
                e.toString(),
                e.getCause() == null ? "" : " (cause: " + e.getCause() + ")");
          }
        },
        INTERVAL_MS,
        INTERVAL_MS,
        TimeUnit.MILLISECONDS);
    return follow::shutdownNow;
  }
}

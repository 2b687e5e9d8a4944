package dev.tideway.compute.node;

import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.StateStore;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A reset's wait for the node's state store to read at the epoch the cluster resets to. */
final class StoreCatchUp {
  static final Logger LOG = LoggerFactory.getLogger(StoreCatchUp.class);

  /** How long a reset waits for the state store to read at the epoch the cluster resets to. */
  static final long RESET_CATCH_UP_MS = 10_000;

  private StoreCatchUp() {}

  /**
   * Refreshes the store until it reads at {@code epoch}, or null; else why not. A follower store
   * sees the meta leader's commits only on its next refresh, and the node clears what it wrote and
   * synced itself: the rebuilt actors would read their state from an older version, and a HashAgg
   * that reads an old count and adds to it loses the epochs in between for good (found with two
   * compute nodes, one killed mid-backfill: the actors moved to the other node read stale groups).
   */
  static String await(StateStore store, long epoch, Clock clock, int nodeId) {
    long deadline = clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RESET_CATCH_UP_MS);
    while (true) {
      try {
        // a store that already reads there (the one the meta process commits to, in one process)
        // is not refreshed: only followers catch up
        if (store.committedEpoch() >= epoch || store.refresh(0) >= epoch) {
          return null;
        }
      } catch (RuntimeException e) {
        LOG.warn(
            "node {}: refreshing the state store for a reset failed: {}", nodeId, e.toString());
      }
      if (clock.nanoTime() > deadline) {
        return "reset: the state store has committed "
            + store.committedEpoch()
            + ", below the epoch "
            + epoch
            + " the cluster resets to, after "
            + RESET_CATCH_UP_MS
            + " ms";
      }
      try {
        clock.sleepMillis(10);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        return "reset: interrupted while the state store caught up";
      }
    }
  }
}

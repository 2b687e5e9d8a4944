package dev.tideway.meta.barrier;

import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.protocol.catalog.VersionPointer;
import java.util.List;

/**
 * What the barrier loop reports for metrics, from its owner thread. Implementations must be cheap
 * and thread-safe (Prometheus counters and histograms are).
 */
public interface BarrierObserver {
  /** A barrier was collected from every node, {@code seconds} after it was injected. */
  default void onCollected(String kind, double seconds) {}

  /** A checkpoint's commit (version, tracker, fenced metadata write) took {@code seconds}. */
  default void onCommitted(double seconds) {}

  /** A recovery started; {@code cause} is one of {@link RecoveryCause}'s labels. */
  default void onRecovery(String cause) {}

  /**
   * Checkpoint {@code epoch} is committed: the version is durable and its pointer persisted in
   * ZooKeeper. Frontends and compute nodes learn it from here ({@code StateStore.refresh}).
   */
  default void onEpochCommitted(long epoch, VersionPointer pointer) {}

  /**
   * The actors' reports of the epochs a checkpoint just committed, oldest first (backfill progress
   * and sink deliveries), after {@link #onEpochCommitted}.
   */
  default void onReportsCommitted(List<ProgressBatch> reports) {}

  /**
   * The table stats of the version a checkpoint just committed (before the progress tracker ran on
   * it).
   */
  default void onTableStats(TableStatsLookup stats) {}

  /** The progress tracker's figures after a commit, last of the commit's callbacks. */
  default void onProgress(ProgressUpdate update) {}

  /** Both observers, {@code a} first. */
  static BarrierObserver both(BarrierObserver a, BarrierObserver b) {
    return new BarrierObserver() {
      @Override
      public void onCollected(String kind, double seconds) {
        a.onCollected(kind, seconds);
        b.onCollected(kind, seconds);
      }

      @Override
      public void onCommitted(double seconds) {
        a.onCommitted(seconds);
        b.onCommitted(seconds);
      }

      @Override
      public void onRecovery(String cause) {
        a.onRecovery(cause);
        b.onRecovery(cause);
      }

      @Override
      public void onEpochCommitted(long epoch, VersionPointer pointer) {
        a.onEpochCommitted(epoch, pointer);
        b.onEpochCommitted(epoch, pointer);
      }

      @Override
      public void onReportsCommitted(List<ProgressBatch> reports) {
        a.onReportsCommitted(reports);
        b.onReportsCommitted(reports);
      }

      @Override
      public void onTableStats(TableStatsLookup stats) {
        a.onTableStats(stats);
        b.onTableStats(stats);
      }

      @Override
      public void onProgress(ProgressUpdate update) {
        a.onProgress(update);
        b.onProgress(update);
      }
    };
  }

  /** No metrics. */
  BarrierObserver NONE = new BarrierObserver() {};
}

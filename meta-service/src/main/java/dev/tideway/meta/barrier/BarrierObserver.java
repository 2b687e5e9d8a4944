package dev.tideway.meta.barrier;

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

  /** No metrics. */
  BarrierObserver NONE = new BarrierObserver() {};
}

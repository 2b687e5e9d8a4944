package dev.tideway.compute.executor;

/**
 * Where connectors report what users watch them by: a source's records skipped because they did not
 * parse and how far each split is behind its end; a sink's delivered epochs and failed deliveries.
 * Thread-safe (every connector actor of a node reports into one).
 */
public interface ConnectorStats {
  /** Reports nothing (tests, benchmarks). */
  ConnectorStats NONE =
      new ConnectorStats() {
        @Override
        public void recordSkipped(String source, String split, long offset, String reason) {}

        @Override
        public void lag(String source, String split, long records) {}

        @Override
        public void delivered(int sinkId, long epoch, long records) {}

        @Override
        public void deliveryFailed(int sinkId, String reason) {}
      };

  /**
   * The record at {@code offset} of {@code split} was skipped: it does not parse ({@code reason}).
   */
  void recordSkipped(String source, String split, long offset, String reason);

  /** {@code split} of {@code source} is {@code records} behind its end. */
  void lag(String source, String split, long records);

  /** Sink {@code sinkId} delivered epoch {@code epoch}'s {@code records} records. */
  void delivered(int sinkId, long epoch, long records);

  /** A delivery of sink {@code sinkId} failed ({@code reason}); the sink's actor fails with it. */
  void deliveryFailed(int sinkId, String reason);
}

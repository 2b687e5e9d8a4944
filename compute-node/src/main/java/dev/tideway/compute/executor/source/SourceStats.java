package dev.tideway.compute.executor.source;

/**
 * Where connector sources report what users watch them by: records skipped because they did not
 * parse, and how far each split is behind its end. Thread-safe (every source actor of a node
 * reports into one).
 */
public interface SourceStats {
  /** Reports nothing (tests, benchmarks). */
  SourceStats NONE =
      new SourceStats() {
        @Override
        public void recordSkipped(String source, String split, long offset, String reason) {}

        @Override
        public void lag(String source, String split, long records) {}
      };

  /**
   * The record at {@code offset} of {@code split} was skipped: it does not parse ({@code reason}).
   */
  void recordSkipped(String source, String split, long offset, String reason);

  /** {@code split} of {@code source} is {@code records} behind its end. */
  void lag(String source, String split, long records);
}

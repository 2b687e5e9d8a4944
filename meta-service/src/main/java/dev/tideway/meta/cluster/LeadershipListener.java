package dev.tideway.meta.cluster;

/**
 * Told about leadership changes, always on the elector's owner thread, in order. Implementations
 * must not block for long: the next change waits behind them.
 */
public interface LeadershipListener {
  /** This process now leads under {@code term}; load metadata and start acting. */
  void onElected(LeaderTerm term);

  /**
   * This process no longer leads. By the time this runs its term is already void (fenced writes
   * fail); stop every leader activity.
   *
   * @param reason why, for the log line and the metric
   */
  void onDeposed(LeaderTerm term, String reason);
}

package dev.tideway.barrier.progress;

import java.util.List;
import java.util.Map;

/**
 * The tracker's state as a value, persisted by meta at checkpoint commits so a new leader restores
 * progress without a drop to zero. Restoring it and then applying the actors' absolute re-reports
 * never moves a job backwards.
 */
public record TrackerSnapshot(long epoch, long meanBarrierIntervalMs, List<JobSnapshot> jobs) {
  public TrackerSnapshot {
    jobs = List.copyOf(jobs);
  }

  /** One job's tracker state. */
  public record JobSnapshot(
      JobSpec spec,
      long frozenKeyCount,
      long frozenLiveRows,
      List<BackfillState> states,
      Map<Integer, Long> rateLimits,
      double displayRatio,
      double rowsPerSecond,
      long lastPhysicalMs,
      long lastRows,
      long lastChangeMs) {
    public JobSnapshot {
      states = List.copyOf(states);
      rateLimits = Map.copyOf(rateLimits);
    }
  }
}

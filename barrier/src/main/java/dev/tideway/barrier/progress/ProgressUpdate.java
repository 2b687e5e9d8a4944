package dev.tideway.barrier.progress;

import java.util.List;

/**
 * What one committed epoch did to progress.
 *
 * @param jobs the progress of every tracked job at this epoch (finished ones last time, as DONE)
 * @param finishedJobIds jobs that finished at this checkpoint: flip them to Created now
 * @param checkpointNeeded some job finished on a non-checkpoint commit: force a checkpoint next
 */
public record ProgressUpdate(
    long epoch, List<JobProgress> jobs, List<Long> finishedJobIds, boolean checkpointNeeded) {
  public ProgressUpdate {
    jobs = List.copyOf(jobs);
    finishedJobIds = List.copyOf(finishedJobIds);
  }
}

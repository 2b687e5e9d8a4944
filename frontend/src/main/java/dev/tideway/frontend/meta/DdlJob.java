package dev.tideway.frontend.meta;

import dev.tideway.barrier.progress.JobProgress;
import java.time.Instant;

/**
 * A creating (or paused) streaming job as the frontend lists it ({@code SHOW JOBS}, {@code
 * rw_catalog.rw_ddl_progress}): the DDL around the barrier module's structured {@link JobProgress},
 * from which the progress string is rendered ({@link JobProgress#render()}).
 *
 * @param ddlId the job id (= the id of the relation being created)
 * @param statement the DDL text as the user wrote it
 * @param createType {@code FOREGROUND} or {@code BACKGROUND}
 * @param initializedAt when the job was submitted
 * @param progress where it is, at the latest committed epoch
 * @param pausedBecause why the job is paused (its actors failed too often; it runs nowhere and its
 *     relation keeps the contents of the pause), or empty for a creating job
 */
public record DdlJob(
    long ddlId,
    String statement,
    String createType,
    Instant initializedAt,
    JobProgress progress,
    String pausedBecause) {
  public DdlJob {
    pausedBecause = pausedBecause == null ? "" : pausedBecause;
  }

  /** A creating job. */
  public DdlJob(
      long ddlId,
      String statement,
      String createType,
      Instant initializedAt,
      JobProgress progress) {
    this(ddlId, statement, createType, initializedAt, progress, "");
  }

  public boolean paused() {
    return !pausedBecause.isEmpty();
  }

  /** The {@code Progress} column of {@code SHOW JOBS}. */
  public String renderProgress() {
    return paused() ? "Paused: " + pausedBecause : progress.render();
  }
}

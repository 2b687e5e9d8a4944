package dev.tideway.frontend.meta;

import dev.tideway.barrier.progress.JobProgress;
import java.time.Instant;

/**
 * A creating streaming job as the frontend lists it ({@code SHOW JOBS}, {@code
 * rw_catalog.rw_ddl_progress}): the DDL around the barrier module's structured {@link JobProgress},
 * from which the progress string is rendered ({@link JobProgress#render()}).
 *
 * @param ddlId the job id (= the id of the relation being created)
 * @param statement the DDL text as the user wrote it
 * @param createType {@code FOREGROUND} or {@code BACKGROUND}
 * @param initializedAt when the job was submitted
 * @param progress where it is, at the latest committed epoch
 */
public record DdlJob(
    long ddlId, String statement, String createType, Instant initializedAt, JobProgress progress) {}

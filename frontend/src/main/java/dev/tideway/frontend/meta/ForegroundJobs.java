package dev.tideway.frontend.meta;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;

/**
 * How a {@link MetaClient} waits for a foreground {@code CREATE MATERIALIZED VIEW}, so that every
 * implementation behaves alike for the user: progress goes to the listener (a NOTICE in psql) every
 * {@link #PROGRESS_INTERVAL_MS}; a job cancelled by {@code CANCEL JOBS} or by Ctrl-C (the session's
 * CancelRequest submits {@link DdlCommand.CancelJobs}) ends the statement with {@code 57014}; a job
 * that failed ends it with the failure ({@code XX000} unless the cause is already a {@link
 * PgException}).
 *
 * <p>The implementation completes {@code done} normally when the view is created (at a checkpoint
 * commit), cancels it ({@link CompletableFuture#cancel}) when the job is cancelled, and completes
 * it exceptionally when the job fails.
 *
 * <p>Stateless; {@link #await} blocks the calling (connection) thread only.
 */
public final class ForegroundJobs {
  /** How often a waiting foreground create reports its progress. */
  public static final long PROGRESS_INTERVAL_MS = 5000;

  private ForegroundJobs() {}

  /**
   * Waits for {@code done}, reporting {@code current.apply(jobId)} to {@code listener} after every
   * {@code intervalMillis} without completion.
   */
  public static void await(
      long jobId,
      CompletableFuture<?> done,
      LongFunction<Optional<DdlJob>> current,
      MetaClient.ProgressListener listener,
      long intervalMillis)
      throws InterruptedException {
    while (true) {
      try {
        done.get(intervalMillis, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException e) {
        current.apply(jobId).ifPresent(listener::progress);
      } catch (CancellationException e) {
        throw cancelled(jobId);
      } catch (ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof CancellationException) {
          throw cancelled(jobId);
        }
        if (cause instanceof PgException pe) {
          throw pe;
        }
        throw PgException.error(
            SqlState.INTERNAL_ERROR, "materialized view job " + jobId + " failed: " + cause);
      }
    }
  }

  /** What a foreground create answers when its job is cancelled. */
  public static PgException cancelled(long jobId) {
    return PgException.error(SqlState.QUERY_CANCELED, "canceling statement due to user request")
        .withDetail("job " + jobId + " was cancelled");
  }
}

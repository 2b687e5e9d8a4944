package dev.tideway.meta.http;

import dev.tideway.protocol.meta.DdlReply;
import java.util.concurrent.CompletableFuture;

/**
 * What the dashboard may change, besides reading: the two buttons of the job page. Each is the same
 * command a SQL client would send, so the catalog and the barrier loop see no difference.
 */
public interface JobControl {
  /** {@code ALTER MATERIALIZED VIEW … SET BACKFILL_RATE_LIMIT}; -1 removes the limit. */
  CompletableFuture<DdlReply> setBackfillRateLimit(int jobId, long rowsPerSecond);

  /** {@code CANCEL JOBS jobId}. */
  CompletableFuture<DdlReply> cancel(int jobId);
}

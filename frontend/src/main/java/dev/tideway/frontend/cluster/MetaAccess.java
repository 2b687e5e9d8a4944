package dev.tideway.frontend.cluster;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlRejectedException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * How a frontend reaches the meta leader: in the same process (the launcher's {@code
 * LocalMetaAccess}) or over Pekko ({@link RemoteMetaAccess}). Thread-safe.
 */
public interface MetaAccess {
  /** The latest catalog this process knows; empty while no leader has loaded one. */
  Optional<CatalogState> catalog();

  /**
   * Submits a DDL command to the leader; completes after it is persisted with its result (the first
   * reserved id, the created object's or job's id), or fails with {@link DdlRejectedException}.
   */
  CompletableFuture<Integer> submit(DdlCommand command);

  /** Completes when job {@code jobId} is created; fails if it is dropped or cancelled. */
  CompletableFuture<Void> awaitCreated(int jobId);

  /**
   * Changes a creating job's backfill rate limit (rows/s per backfill actor; 0 pauses, -1 removes
   * the limit): persisted, then sent to the running actors on a barrier. Completes when the
   * checkpoint carrying it committed (or a recovery rebuilt the actors with it); fails with {@link
   * DdlRejectedException} when the job is unknown, not creating or has no backfill.
   */
  CompletableFuture<Void> setBackfillRateLimit(int jobId, long rowsPerSecond);

  /** The creating jobs' progress at the leader's last commit. */
  Map<Long, JobProgress> progress();

  /** The latest committed epoch (0 before the first commit). */
  long committedEpoch();

  /**
   * The catalog as persisted now (no cached copy), read in one pass that takes the version pointer
   * before the recovery log, as {@code RecoveryLog.fate} needs.
   */
  default Optional<CatalogState> freshCatalog() {
    return catalog();
  }
}

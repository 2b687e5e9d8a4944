package dev.tideway.frontend.meta;

import dev.tideway.frontend.pgwire.PgException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The frontend's view of the meta service: the catalog, DDL, creating jobs and checkpoints. Calls
 * may come from any connection thread; implementations are thread-safe.
 */
public interface MetaClient {
  /** Every relation a query may read, in id order (sinks are not among them). */
  List<Relation> relations();

  /** Every sink ({@code CREATE SINK}), in id order; its table is its log store. */
  default List<Relation> sinks() {
    return List.of();
  }

  /** The relation or sink with this (lower-case) name. */
  default Optional<Relation> relation(String name) {
    return java.util.stream.Stream.concat(relations().stream(), sinks().stream())
        .filter(r -> r.name().equals(name))
        .findFirst();
  }

  /** The cluster's users ({@code CREATE USER}, authentication, {@code pg_roles}). */
  default Users users() {
    throw PgException.unsupported("users");
  }

  /** A fresh id for a relation or a state table. */
  int allocateId();

  /**
   * Applies a DDL command. For a foreground create this returns when the job is done; progress
   * notices go to {@code progress} meanwhile.
   *
   * @return for CancelJobs, the ids cancelled; otherwise empty
   */
  List<Long> submit(DdlCommand command, ProgressListener progress) throws InterruptedException;

  /** Creating jobs and their progress. */
  List<DdlJob> jobs();

  /** Per-table storage statistics. */
  List<TableStats> tableStats();

  /** Waits for the next checkpoint to commit (FLUSH); returns its epoch. */
  long flush();

  /**
   * The acknowledged writes among {@code acks} that will never commit: a recovery threw their epoch
   * away before a checkpoint covered it (or, after hundreds of recoveries, their fate can no longer
   * be told). Ask after {@link #flush} returned; a write not returned here is committed.
   */
  List<WriteAck> lostWrites(List<WriteAck> acks);

  /** The latest committed epoch; batch reads use it. */
  long committedEpoch();

  /**
   * Changes the backfill rate limit of a creating materialized view ({@code ALTER MATERIALIZED VIEW
   * ... SET BACKFILL_RATE_LIMIT}); meta sends it to the job's backfill actors as a {@code Throttle}
   * mutation. Empty means unlimited, 0 pauses the backfill.
   *
   * @return false when no job {@code jobId} is creating (the view is created or unknown)
   */
  default boolean setBackfillRateLimit(long jobId, OptionalLong rowsPerSecond) {
    throw PgException.unsupported("changing the backfill rate limit of a running job");
  }

  /** Receives the progress of a foreground job, about every few seconds. */
  interface ProgressListener {
    void progress(DdlJob job);

    ProgressListener NONE = p -> {};
  }
}

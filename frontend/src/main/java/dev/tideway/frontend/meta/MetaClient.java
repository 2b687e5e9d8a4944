package dev.tideway.frontend.meta;

import java.util.List;
import java.util.Optional;

/**
 * The frontend's view of the meta service: the catalog, DDL, creating jobs and checkpoints. Calls
 * may come from any connection thread; implementations are thread-safe.
 */
public interface MetaClient {
  /** Every relation, in id order. */
  List<Relation> relations();

  /** The relation with this (lower-case) name. */
  default Optional<Relation> relation(String name) {
    return relations().stream().filter(r -> r.name().equals(name)).findFirst();
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

  /** The latest committed epoch; batch reads use it. */
  long committedEpoch();

  /** Receives the progress of a foreground job, about every few seconds. */
  interface ProgressListener {
    void progress(DdlJob job);

    ProgressListener NONE = p -> {};
  }
}

package dev.tideway.meta.barrier;

import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.protocol.catalog.VersionPointer;
import java.util.List;
import java.util.Set;

/**
 * The storage version manager as the barrier loop sees it: commit the SSTs of a checkpoint as a new
 * version and make its delta durable in the object store before returning.
 *
 * @param <S> the storage engine's SST info type
 */
public interface VersionCommitter<S> {
  /** The version a new leader starts from (its pointer, as persisted in ZooKeeper). */
  CommittedVersion current();

  /**
   * Commits {@code epochs} (oldest first; the last is the new max committed epoch) with these SSTs
   * and stats deltas. Must be idempotent per epoch: a new leader may re-commit an epoch whose
   * ZooKeeper pointer write had an unknown outcome.
   */
  CommittedVersion commit(List<Long> epochs, List<S> ssts, List<TableStatsDelta> statsDeltas);

  /**
   * Drops the data of these tables (a dropped or cancelled job's relation and internal tables)
   * durably: their stats leave the version at once, compaction and vacuum delete their data. Called
   * once no actor writes them any more. Idempotent.
   */
  default void dropTables(Set<Integer> tableIds) {}

  /** The tables the current version holds stats for (a new leader drops those the catalog lost). */
  default Set<Integer> tablesWithData() {
    return Set.of();
  }

  /** A committed version: where it is, and its table stats for the progress tracker. */
  record CommittedVersion(VersionPointer pointer, TableStatsLookup stats) {}
}

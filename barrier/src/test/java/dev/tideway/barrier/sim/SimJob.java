package dev.tideway.barrier.sim;

import dev.tideway.barrier.progress.BackfillActor;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.JobSpec;
import dev.tideway.barrier.progress.TableStatsView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A creating job of known size: its upstream table's stats and its backfill actors (one per node).
 */
final class SimJob {
  final long id;
  final BackfillMode mode;
  final int tableId;
  final TableStatsView stats;
  final List<SimBackfillActor> actors = new ArrayList<>();

  /** Truth: the job finished at a committed checkpoint. */
  boolean created;

  /** Its actors run: the Add that deployed them committed (jobs of the initial graph start so). */
  boolean deployed = true;

  /** A CREATE (Add command) is scheduled or in flight and may still fail. */
  boolean deploying;

  long addCommandId = -1;

  /** Invariant memory: the last committed display ratio and consumed rows. */
  double lastDisplay;

  long lastConsumed;

  SimJob(long id, BackfillMode mode, int tableId, TableStatsView stats) {
    this.id = id;
    this.mode = mode;
    this.tableId = tableId;
    this.stats = stats;
  }

  JobSpec spec() {
    return new JobSpec(
        id,
        mode,
        actors.stream().map(a -> BackfillActor.table(a.actorId)).toList(),
        Map.of(tableId, 1));
  }

  long durableRows() {
    long n = 0;
    for (SimBackfillActor a : actors) {
      n += a.durable.rows();
    }
    return n;
  }

  long maxRowsRead() {
    long n = 0;
    for (SimBackfillActor a : actors) {
      n += a.maxRowsRead;
    }
    return n;
  }

  boolean durablyFinished() {
    for (SimBackfillActor a : actors) {
      if (!a.durableFinished()) {
        return false;
      }
    }
    return true;
  }
}

package dev.tideway.barrier.sim;

import static dev.tideway.barrier.progress.BackfillState.CONSUMING_LOG_STORE;
import static dev.tideway.barrier.progress.BackfillState.CONSUMING_UPSTREAM;
import static dev.tideway.barrier.progress.BackfillState.DONE;
import static dev.tideway.barrier.progress.BackfillState.DONE_CONSUMING_LOG_STORE;
import static dev.tideway.barrier.progress.BackfillState.INIT;

import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.random.RandomSource;
import java.util.Map;
import java.util.TreeMap;

/**
 * A backfill actor of known size. On each barrier it reads some snapshot rows (none while paused or
 * limited to 0), persists its state under the barrier's {@code prev}, reports progress
 * <b>before</b> yielding the barrier, and after recovery restarts from its durable state and
 * re-reports absolute counts on the INITIAL barrier. Snapshot-mode actors then drain a log store of
 * random length.
 */
final class SimBackfillActor {
  /** A persisted backfill state: rows read, phase code, pending log-store barriers. */
  record State(long rows, byte code, long pending) {}

  final int actorId;
  final int nodeId;
  final SimJob job;
  final long size;
  final long maxRowsPerBarrier;

  State durable = new State(0, INIT, 0);
  final TreeMap<Long, State> staged = new TreeMap<>();
  State mem = durable;
  long maxRowsRead;
  CreateMviewProgressReporter reporter;
  boolean paused;
  long rateLimit = -1;

  /** Ordered barrier inbox from the source actor. */
  Channel inbox;

  /** The source forwards barriers to this actor: its job is deployed, or the Add reached it. */
  boolean active;

  SimBackfillActor(int actorId, int nodeId, SimJob job, long size, long maxRowsPerBarrier) {
    this.actorId = actorId;
    this.nodeId = nodeId;
    this.job = job;
    this.size = size;
    this.maxRowsPerBarrier = maxRowsPerBarrier;
  }

  boolean durableFinished() {
    return job.mode == BackfillMode.SNAPSHOT
        ? durable.code() == DONE_CONSUMING_LOG_STORE
        : durable.code() >= DONE;
  }

  /** Rebuild after recovery: in-memory state from durable state, uncommitted stages dropped. */
  void rebuild(
      CreateMviewProgressReporter newReporter, boolean clusterPaused, Long committedLimit) {
    staged.clear();
    active = job.deployed;
    mem = durable;
    reporter = newReporter;
    paused = clusterPaused;
    rateLimit = committedLimit == null ? -1 : committedLimit;
  }

  /** The storage committed up to {@code epoch}: the latest stage at or below it becomes durable. */
  void commit(long epoch) {
    Map.Entry<Long, State> e = staged.floorEntry(epoch);
    if (e != null) {
      durable = e.getValue();
      staged.headMap(epoch, true).clear();
    }
  }

  /** Handles a barrier; the caller collects it afterwards. */
  void onBarrier(Barrier b, RandomSource random, long intervalMs) {
    if (b.kind() == BarrierKind.INITIAL) {
      reReport(b);
      return;
    }
    if (b.mutation() instanceof Mutation.Add add && add.actors().contains(actorId)) {
      return; // the first barrier of a new actor: initialise, read nothing, report nothing
    }
    applyMutation(b.mutation());
    State before = mem;
    mem = step(random, intervalMs);
    staged.put(b.prev(), mem);
    if (mem.equals(before) && mem.code() != CONSUMING_UPSTREAM) {
      return; // finished and unchanged: nothing to report
    }
    report(b, mem);
  }

  private State step(RandomSource random, long intervalMs) {
    if (mem.code() < DONE) {
      long k = paused || rateLimit == 0 ? 0 : random.nextLong(0, maxRowsPerBarrier + 1);
      if (rateLimit > 0) {
        k = Math.min(k, Math.max(1, rateLimit * intervalMs / 1000));
      }
      long rows = Math.min(size, mem.rows() + k);
      maxRowsRead = Math.max(maxRowsRead, rows);
      return new State(rows, rows == size ? DONE : CONSUMING_UPSTREAM, 0);
    }
    if (job.mode != BackfillMode.SNAPSHOT || mem.code() == DONE_CONSUMING_LOG_STORE) {
      return mem;
    }
    if (mem.code() == DONE) {
      return new State(mem.rows(), CONSUMING_LOG_STORE, random.nextLong(1, 7));
    }
    long pending = Math.max(0, mem.pending() - random.nextLong(0, 3));
    return new State(
        mem.rows(), pending == 0 ? DONE_CONSUMING_LOG_STORE : CONSUMING_LOG_STORE, pending);
  }

  private void applyMutation(Mutation m) {
    if (m instanceof Mutation.Pause) {
      paused = true;
    } else if (m instanceof Mutation.Resume) {
      paused = false;
    } else if (m instanceof Mutation.Throttle t && t.rowsPerSecondByActor().containsKey(actorId)) {
      rateLimit = t.rowsPerSecondByActor().get(actorId);
    }
  }

  private void report(Barrier b, State s) {
    switch (s.code()) {
      case CONSUMING_UPSTREAM -> reporter.update(b.epoch(), b.prev(), s.rows());
      case DONE -> reporter.finish(b.epoch(), s.rows());
      case CONSUMING_LOG_STORE -> reporter.updateLogStoreProgress(b.epoch(), s.pending());
      case DONE_CONSUMING_LOG_STORE -> reporter.finishConsumingLogStore(b.epoch());
      default -> throw new IllegalStateException("actor " + actorId + " cannot report " + s);
    }
  }

  /** First barrier after recovery: report the restored absolute state (never a reset to zero). */
  private void reReport(Barrier b) {
    State s = mem;
    if (s.code() == INIT || job.created) {
      return; // a created job's backfill is passthrough: nothing is tracked any more
    }
    if (s.code() == CONSUMING_UPSTREAM) {
      reporter.update(b.epoch(), b.prev(), s.rows());
      return;
    }
    reporter.finish(b.epoch(), s.rows());
    if (s.code() == CONSUMING_LOG_STORE) {
      reporter.updateLogStoreProgress(b.epoch(), s.pending());
    } else if (s.code() == DONE_CONSUMING_LOG_STORE) {
      reporter.finishConsumingLogStore(b.epoch());
    }
  }
}

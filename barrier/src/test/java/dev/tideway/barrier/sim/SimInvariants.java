package dev.tideway.barrier.sim;

import dev.tideway.barrier.global.BarrierDecision;
import dev.tideway.barrier.progress.JobPhase;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressUpdate;
import java.util.Set;

/**
 * The named invariants of the barrier simulation. Each failure names the invariant, so a failing
 * seed reads as "which promise broke", not "which line threw".
 */
final class SimInvariants {
  /** A broken simulation invariant. */
  static final class Broken extends AssertionError {
    Broken(String invariant, String detail) {
      super(invariant + ": " + detail);
    }
  }

  private final SimWorld w;
  private long lastCommitted = -1;

  SimInvariants(SimWorld w) {
    this.w = w;
  }

  private static void check(boolean ok, String invariant, String detail) {
    if (!ok) {
      throw new Broken(invariant, detail);
    }
  }

  /** Epochs commit in order, and only when every actor collected the checkpoint barrier. */
  void beforeCommit(BarrierDecision.CommitEpoch<String> c) {
    check(
        c.committedEpoch() > lastCommitted,
        "EpochsCommitInOrder",
        "committing " + c.committedEpoch() + " after " + lastCommitted);
    long prev = lastCommitted;
    for (long e : c.committedEpochs()) {
      check(
          e > prev,
          "EpochsCommitInOrder",
          "epochs " + c.committedEpochs() + " after " + lastCommitted);
      prev = e;
    }
    lastCommitted = c.committedEpoch();
    Set<Integer> collected = w.collectedBy.getOrDefault(c.epoch().curr(), Set.of());
    int expected = w.expectedCollects.getOrDefault(c.epoch().curr(), -1);
    check(
        collected.size() == expected,
        "CommitOnlyWhenFullyCollected",
        "barrier "
            + c.epoch()
            + " committed but collected by "
            + collected.size()
            + " of "
            + expected
            + " actors: "
            + collected);
  }

  /** Progress at a commit: exact, monotone, and done exactly when every actor durably finished. */
  void afterCommit(BarrierDecision.CommitEpoch<String> c, ProgressUpdate u) {
    check(
        w.tracker.regressions() == 0,
        "ReReportsNeverRegress",
        "tracker held "
            + w.tracker.regressions()
            + ": "
            + w.tracker.lastRegression()
            + " (commit "
            + c.epoch()
            + ", recoveries "
            + w.recoveries
            + ", failovers "
            + w.failovers
            + ")");
    check(
        w.tracker.unknownActorReports() == 0,
        "NoUnknownReports",
        "" + w.tracker.unknownActorReports());
    for (JobProgress p : u.jobs()) {
      checkJobAtCommit(c, p);
    }
  }

  private void checkJobAtCommit(BarrierDecision.CommitEpoch<String> c, JobProgress p) {
    SimJob job = w.jobs.get((int) p.jobId() - 1);
    check(
        p.consumedRows() == job.durableRows(),
        "NothingUncommittedVisible",
        "job "
            + job.id
            + " shows "
            + p.consumedRows()
            + " rows at commit "
            + c.committedEpoch()
            + " but "
            + job.durableRows()
            + " are durable");
    check(
        p.displayRatio() >= job.lastDisplay,
        "DisplayRatioNeverDecreases",
        "job "
            + job.id
            + " went from "
            + job.lastDisplay
            + " to "
            + p.displayRatio()
            + " ("
            + p
            + ")");
    check(
        p.consumedRows() >= job.lastConsumed,
        "ProgressResumesAtOrAboveLastCommitted",
        "job "
            + job.id
            + " consumed "
            + p.consumedRows()
            + " < last committed "
            + job.lastConsumed
            + " (recoveries "
            + w.recoveries
            + ", failovers "
            + w.failovers
            + ")");
    boolean finished = job.durablyFinished();
    check(
        p.isDone() == finished && (p.displayRatio() == 1.0) == finished,
        "DoneExactlyWhenDone",
        "job "
            + job.id
            + " durably finished="
            + finished
            + " but "
            + p.phase()
            + " display "
            + p.displayRatio());
    check(
        p.phase() != JobPhase.FINISHING,
        "FinishVisibleAtCheckpoint",
        "job " + job.id + " FINISHING on a checkpoint commit");
    job.lastDisplay = p.displayRatio();
    job.lastConsumed = p.consumedRows();
  }

  /** Cheap checks after every event. */
  void afterEvent() {
    check(
        w.core.committedEpoch() == w.committedEpoch,
        "CoreMatchesVersionStore",
        "core says " + w.core.committedEpoch() + ", store " + w.committedEpoch);
    for (SimJob job : w.jobs) {
      long shown =
          w.tracker.progress(job.id).map(JobProgress::consumedRows).orElse(job.lastConsumed);
      check(
          shown <= job.maxRowsRead(),
          "ConsumedNeverExceedsRowsRead",
          "job " + job.id + " shows " + shown + " > " + job.maxRowsRead() + " rows ever read");
      check(
          job.created == false || job.durablyFinished(),
          "CreatedOnlyWhenFinished",
          "job " + job.id + " created while not durably finished");
    }
  }

  /** Liveness once the chaos stopped: every job finished and was created. */
  void atEnd() {
    for (SimJob job : w.jobs) {
      check(
          job.created,
          "EveryJobFinishes",
          "job "
              + job.id
              + " ("
              + job.mode
              + ") not created after "
              + w.scheduler.elapsedMs()
              + " ms: durable rows "
              + job.durableRows()
              + ", progress "
              + w.tracker.progress(job.id).map(JobProgress::toString).orElse("none")
              + ", recovering="
              + w.core.isRecovering());
    }
  }
}

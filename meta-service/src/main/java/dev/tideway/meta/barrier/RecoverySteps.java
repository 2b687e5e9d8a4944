package dev.tideway.meta.barrier;

import dev.tideway.meta.catalog.DdlService;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlReply;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fenced catalog writes a recovery makes before it resets the compute nodes, in order: isolate
 * the jobs that keep failing ({@link FailingJobs}), move the actors of lost nodes, log the new
 * generation. Each waits for its write (up to 30 s) and answers with why it failed, if it did: the
 * recovery is then retried after the backoff. Called on the barrier loop's thread.
 */
final class RecoverySteps {
  private static final Logger LOG = LoggerFactory.getLogger(RecoverySteps.class);
  private static final long WAIT_S = 30;

  private final DdlService ddl;

  RecoverySteps(DdlService ddl) {
    this.ddl = ddl;
  }

  /**
   * Takes the due jobs out of the graph: a creating job is removed (its {@code CREATE} fails with
   * the reason), a created materialized view is paused with the jobs downstream of it. A table or
   * source is never paused (every reader would stop with it): it keeps recovering.
   */
  Optional<String> isolate(long recovery, CatalogState known, FailingJobs failing) {
    for (Map.Entry<Integer, String> e : failing.due().entrySet()) {
      int jobId = e.getKey();
      JobRecord job = known.jobs().get(jobId);
      CatalogObject relation = known.objects().get(jobId);
      DdlCommand cmd;
      if (job == null || relation == null) {
        failing.settled(jobId);
        continue;
      } else if (job.status() == JobStatus.CREATING) {
        cmd = new DdlCommand.FailJob(jobId, "'" + relation.name() + "' failed: " + e.getValue());
      } else if (job.status() == JobStatus.CREATED
          && relation.kind() == ObjectKind.MATERIALIZED_VIEW) {
        cmd = new DdlCommand.PauseJob(jobId, e.getValue());
      } else {
        LOG.warn(
            "recovery #{}: {} '{}' (job {}) keeps failing ({}); only creating jobs and"
                + " materialized views are isolated",
            recovery,
            relation.kind(),
            relation.name(),
            jobId,
            e.getValue());
        failing.settled(jobId);
        continue;
      }
      DdlReply r;
      try {
        r = ddl.submitFailureAfterReset(cmd).get(WAIT_S, TimeUnit.SECONDS);
      } catch (Exception ex) {
        LOG.warn("recovery #{}: isolating job {} failed", recovery, jobId, ex);
        return Optional.of("reset failed: isolating job " + jobId + ": " + ex);
      }
      failing.settled(jobId);
      if (r instanceof DdlReply.Rejected rej) {
        // it changed meanwhile (finished, dropped): the next failures count afresh
        LOG.warn("recovery #{}: job {} not isolated: {}", recovery, jobId, rej.message());
        continue;
      }
      LOG.error(
          "recovery #{}: job {} ('{}') is {}: {}",
          recovery,
          jobId,
          relation.name(),
          cmd instanceof DdlCommand.FailJob ? "removed, its CREATE failed" : "paused",
          e.getValue());
    }
    return Optional.empty();
  }

  /**
   * The reset is done: the {@code CREATE}s of the jobs {@link #isolate} removed are answered now (a
   * failed reset keeps them waiting for the retry's).
   */
  void resetDone() {
    ddl.releaseHeldFailures();
  }

  /**
   * Moves the actors of compute nodes that are no longer registered to live ones, so the reset
   * rebuilds them there.
   */
  Optional<String> relocate(long recovery) {
    return submit(recovery, new DdlCommand.RelocateActors(), "relocating actors");
  }

  /**
   * Logs the generation the reset starts and the committed epoch it resets to, before any node
   * hears of it: FLUSH reads the log to tell the acknowledged writes the reset throws away.
   */
  Optional<String> record(long recovery, long generation, long committedEpoch) {
    return submit(
        recovery,
        new DdlCommand.RecordRecovery(generation, committedEpoch),
        "logging the generation");
  }

  private Optional<String> submit(long recovery, DdlCommand cmd, String what) {
    try {
      DdlReply r = ddl.submit(cmd).get(WAIT_S, TimeUnit.SECONDS);
      if (r instanceof DdlReply.Rejected rej) {
        LOG.warn("recovery #{}: {} was refused: {}", recovery, what, rej.message());
        return Optional.of("reset failed: " + what + ": " + rej.message());
      }
      if (r instanceof DdlReply.ActorsRelocated moved && !moved.moves().isEmpty()) {
        LOG.warn("recovery #{}: actors of lost nodes move: {}", recovery, moved.moves());
      }
      return Optional.empty();
    } catch (Exception e) {
      LOG.warn("recovery #{}: {} failed", recovery, what, e);
      return Optional.of("reset failed: " + what + ": " + e);
    }
  }
}

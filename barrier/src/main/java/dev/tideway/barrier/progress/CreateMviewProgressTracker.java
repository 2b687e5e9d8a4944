package dev.tideway.barrier.progress;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.util.IntIntMap;
import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Meta-side progress of every creating job. Per job it keeps the backfill actors and their last
 * states, the upstream tables and how often each is scanned. On each committed epoch ({@link
 * #onEpochCommitted}, called after the storage version of that epoch is committed) it applies the
 * epoch's reports against the committed version's stats and produces a {@link JobProgress} per job.
 *
 * <p>Overview: reports are applied only for committed epochs, so every figure matches durable
 * state; after recovery actors re-report absolute counts restored from that state, which are never
 * below what was applied (a lower re-report is held, counted in {@link #regressions()}, never
 * applied). The display ratio is the running maximum of the raw ratio capped below 1.0, and is 1.0
 * exactly when the job is done: every actor finished and the commit is a checkpoint. A job that
 * finishes on a non-checkpoint commit is FINISHING and asks for a checkpoint.
 *
 * <p>Confined to the meta barrier loop's thread. Per report: one primitive map lookup and O(1)
 * arithmetic; per commit: O(jobs × upstream tables).
 */
public final class CreateMviewProgressTracker {
  private final ProgressConfig config;
  private final Map<Long, JobTracker> jobs = new LinkedHashMap<>();
  private final IntIntMap actorIndex = new IntIntMap(1024);
  private JobTracker[] jobOfIndex = new JobTracker[1024];
  private int[] slotOfIndex = new int[1024];
  private int nextIndex;
  private boolean clusterPaused;

  /** EWMA of physical ms between a committed barrier's prev and curr: the barrier interval. */
  private long meanIntervalMs = -1;

  private long unknownActorReports;
  private final Map<Long, JobProgress> latest = new LinkedHashMap<>();

  public CreateMviewProgressTracker(ProgressConfig config) {
    this.config = Checks.checkNotNull(config, "progress config");
  }

  /**
   * Starts tracking a creating job.
   *
   * @param statsAtSnapshot for snapshot backfill, the stats of the version at the snapshot epoch
   *     (its denominator freezes there); null otherwise, or to freeze at the first commit
   * @param registeredEpoch the epoch the job was created at (starts the stall clock)
   */
  public void register(JobSpec spec, TableStatsLookup statsAtSnapshot, long registeredEpoch) {
    Checks.checkArgument(
        !jobs.containsKey(spec.jobId()), "job %s is already tracked", spec.jobId());
    JobTracker job = new JobTracker(spec, Epoch.physicalMs(registeredEpoch));
    if (spec.mode() == BackfillMode.SNAPSHOT && statsAtSnapshot != null) {
      job.freeze(statsAtSnapshot);
    }
    add(job);
  }

  private void add(JobTracker job) {
    for (int slot = 0; slot < job.actorIds.length; slot++) {
      int actor = job.actorIds[slot];
      Checks.checkArgument(
          !actorIndex.containsKey(actor),
          "job %s: actor %s already belongs to job %s",
          job.spec.jobId(),
          actor,
          actorIndex.containsKey(actor) ? jobOfIndex[actorIndex.get(actor, 0)].spec.jobId() : -1);
      if (nextIndex == jobOfIndex.length) {
        jobOfIndex = Arrays.copyOf(jobOfIndex, nextIndex * 2);
        slotOfIndex = Arrays.copyOf(slotOfIndex, nextIndex * 2);
      }
      jobOfIndex[nextIndex] = job;
      slotOfIndex[nextIndex] = slot;
      actorIndex.put(actor, nextIndex++);
    }
    jobs.put(job.spec.jobId(), job);
  }

  /** Stops tracking a job (cancelled or dropped). */
  public void cancel(long jobId) {
    JobTracker job = jobs.remove(jobId);
    if (job != null) {
      for (int actor : job.actorIds) {
        actorIndex.remove(actor);
      }
      latest.remove(jobId);
    }
  }

  /** Applies a committed barrier's mutation: Pause/Resume and per-actor rate limits. */
  public void onMutation(Mutation mutation) {
    if (mutation instanceof Mutation.Pause) {
      clusterPaused = true;
    } else if (mutation instanceof Mutation.Resume) {
      clusterPaused = false;
    } else if (mutation instanceof Mutation.Throttle t) {
      t.rowsPerSecondByActor()
          .forEach(
              (actor, rate) -> {
                int idx = actorIndex.get(actor, -1);
                if (idx >= 0) {
                  jobOfIndex[idx].setRateLimit(slotOfIndex[idx], rate);
                }
              });
    }
  }

  /**
   * Applies the reports of a committed epoch (in epoch order, a later report of an actor wins) and
   * recomputes every job against {@code stats}, the stats of the version that commit produced.
   */
  public ProgressUpdate onEpochCommitted(
      EpochPair epoch, boolean checkpoint, List<ProgressBatch> reports, TableStatsLookup stats) {
    for (int b = 0; b < reports.size(); b++) {
      applyBatch(reports.get(b));
    }
    long interval = Epoch.physicalMs(epoch.curr()) - Epoch.physicalMs(epoch.prev());
    if (epoch.prev() > 0 && interval > 0) {
      meanIntervalMs = meanIntervalMs < 0 ? interval : (meanIntervalMs * 7 + interval) / 8;
    }
    JobTracker.Context ctx =
        new JobTracker.Context(epoch, checkpoint, clusterPaused, stats, meanIntervalMs, config);
    List<JobProgress> out = new ArrayList<>(jobs.size());
    List<Long> finished = new ArrayList<>();
    boolean needCheckpoint = false;
    for (Iterator<JobTracker> it = jobs.values().iterator(); it.hasNext(); ) {
      JobTracker job = it.next();
      JobProgress p = job.compute(ctx);
      out.add(p);
      if (p.isDone()) {
        finished.add(job.spec.jobId());
      } else {
        needCheckpoint |= p.phase() == JobPhase.FINISHING;
        latest.put(job.spec.jobId(), p);
      }
    }
    for (long id : finished) {
      cancel(id);
    }
    return new ProgressUpdate(epoch.curr(), out, finished, needCheckpoint);
  }

  private void applyBatch(ProgressBatch batch) {
    for (int i = 0; i < batch.size(); i++) {
      if (!ProgressBatch.isBackfillState(batch.code(i))) {
        continue; // a sink's delivery, a node's report or vnodes: not a creating job's rows
      }
      int idx = actorIndex.get(batch.actorId(i), -1);
      if (idx < 0) {
        unknownActorReports++; // e.g. an actor of a cancelled job; RisingWave logs and ignores
        continue;
      }
      jobOfIndex[idx].apply(slotOfIndex[idx], batch.code(i), batch.a(i), batch.rows(i));
    }
  }

  /** The progress of {@code jobId} at the last commit, while it is tracked. */
  public Optional<JobProgress> progress(long jobId) {
    return Optional.ofNullable(latest.get(jobId));
  }

  /** Ids of the tracked (creating) jobs. */
  public List<Long> jobIds() {
    return List.copyOf(jobs.keySet());
  }

  /** The last state applied for {@code actorId}, if it belongs to a tracked job. */
  public Optional<BackfillState> actorState(int actorId) {
    int idx = actorIndex.get(actorId, -1);
    return idx < 0 ? Optional.empty() : Optional.of(jobOfIndex[idx].state(slotOfIndex[idx]));
  }

  /** Reports from actors of no tracked job (ignored). */
  public long unknownActorReports() {
    return unknownActorReports;
  }

  /** Re-reports below already-applied values, held instead of applied, over all tracked jobs. */
  public long regressions() {
    long n = 0;
    for (JobTracker j : jobs.values()) {
      n += j.regressions;
    }
    return n;
  }

  /** The last held re-report of any tracked job, or null. */
  public String lastRegression() {
    String last = null;
    for (JobTracker j : jobs.values()) {
      last = j.lastRegression != null ? j.lastRegression : last;
    }
    return last;
  }

  /** The tracker as a value, to persist with a checkpoint commit. */
  public TrackerSnapshot snapshot(long epoch) {
    List<TrackerSnapshot.JobSnapshot> list = new ArrayList<>(jobs.size());
    for (JobTracker j : jobs.values()) {
      list.add(j.snapshot());
    }
    return new TrackerSnapshot(epoch, meanIntervalMs, list);
  }

  /** A tracker restored from a snapshot (meta failover); then apply the actors' re-reports. */
  public static CreateMviewProgressTracker restore(
      TrackerSnapshot snapshot, ProgressConfig config) {
    CreateMviewProgressTracker t = new CreateMviewProgressTracker(config);
    t.meanIntervalMs = snapshot.meanBarrierIntervalMs();
    for (TrackerSnapshot.JobSnapshot s : snapshot.jobs()) {
      JobTracker job = new JobTracker(s.spec(), s.lastChangeMs());
      job.restoreStates(s.states(), s.rateLimits());
      job.frozenKeyCount = s.frozenKeyCount();
      job.frozenLiveRows = s.frozenLiveRows();
      job.display = s.displayRatio();
      job.rate = s.rowsPerSecond();
      job.lastPhysicalMs = s.lastPhysicalMs();
      job.lastRows = s.lastRows();
      job.lastChangeMs = s.lastChangeMs();
      t.add(job);
    }
    return t;
  }
}

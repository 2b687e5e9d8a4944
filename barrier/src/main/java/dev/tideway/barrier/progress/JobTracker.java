package dev.tideway.barrier.progress;

import static dev.tideway.barrier.progress.BackfillState.CONSUMING_LOG_STORE;
import static dev.tideway.barrier.progress.BackfillState.CONSUMING_UPSTREAM;
import static dev.tideway.barrier.progress.BackfillState.DONE;
import static dev.tideway.barrier.progress.BackfillState.DONE_CONSUMING_LOG_STORE;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.epoch.EpochPair;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The tracker state of one creating job: per-actor last states in primitive arrays and running sums
 * maintained incrementally per report, so applying a report is O(1) and a commit is O(tables).
 *
 * <p>Confined to the tracker's owner thread (the meta barrier loop).
 */
final class JobTracker {
  /** The highest display value before the job is done: "almost", never "done". */
  static final double MAX_BELOW_DONE = 0.9999;

  final JobSpec spec;
  final int[] actorIds;
  private final boolean[] source;
  private final byte[] codes;
  private final long[] as;
  private final long[] rows;
  private final long[] rateLimits;
  private final int[] tableIds;
  private final int[] scans;
  private final int tableActors;

  private long tableRows;
  private long sourceRows;
  private int snapshotDone;
  private int logStoreDone;
  private int logStoreConsuming;
  private int finished;
  private int reported;
  private long pendingSum;

  /** Re-reports below what was already applied (re-seed after recovery); held, never applied. */
  long regressions;

  /** The last held re-report, for logs: "actor 7: Done[...] after ...". */
  String lastRegression;

  /** Snapshot backfill freezes its denominator at the snapshot epoch; -1 = not frozen. */
  long frozenKeyCount = -1;

  long frozenLiveRows = -1;

  double display;

  /** EWMA of rows/s; NaN until two commits were seen. */
  double rate = Double.NaN;

  long lastPhysicalMs = -1;
  long lastRows;

  /** Physical ms of the last epoch in which any actor made progress (stall detection). */
  long lastChangeMs;

  private boolean progressed;

  JobTracker(JobSpec spec, long registeredPhysicalMs) {
    this.spec = spec;
    int n = spec.actors().size();
    actorIds = new int[n];
    source = new boolean[n];
    codes = new byte[n];
    as = new long[n];
    rows = new long[n];
    rateLimits = new long[n];
    int t = 0;
    for (int i = 0; i < n; i++) {
      BackfillActor a = spec.actors().get(i);
      actorIds[i] = a.actorId();
      source[i] = a.upstream() == UpstreamType.SOURCE;
      rateLimits[i] = -1;
      t += source[i] ? 0 : 1;
    }
    tableActors = t;
    tableIds = new int[spec.scansByTable().size()];
    scans = new int[tableIds.length];
    int k = 0;
    for (Map.Entry<Integer, Integer> e : spec.scansByTable().entrySet()) {
      tableIds[k] = e.getKey();
      scans[k++] = e.getValue();
    }
    lastChangeMs = registeredPhysicalMs;
  }

  private boolean isFinished(int slot, byte code) {
    if (source[slot] || spec.mode() == BackfillMode.ARRANGEMENT) {
      return code >= DONE;
    }
    return code == DONE_CONSUMING_LOG_STORE;
  }

  /** Applies one report to actor {@code slot}. Phases and rows below the applied ones are held. */
  void apply(int slot, byte code, long a, long r) {
    byte old = codes[slot];
    long oldRows = rows[slot];
    if (code < old && r == oldRows) {
      return; // replay of an earlier phase (finish re-reported after recovery): nothing new
    }
    if (code < old || r < oldRows) {
      regressions++;
      lastRegression =
          "job "
              + spec.jobId()
              + " actor "
              + actorIds[slot]
              + ": re-reported "
              + BackfillState.decode(code, a, r)
              + " after "
              + state(slot);
      if (code < old) {
        return;
      }
    }
    long newRows = Math.max(r, oldRows);
    if (source[slot]) {
      sourceRows += newRows - oldRows;
    } else {
      tableRows += newRows - oldRows;
    }
    reported += old == 0 ? 1 : 0;
    snapshotDone += old < DONE && code >= DONE ? 1 : 0;
    logStoreDone += old != DONE_CONSUMING_LOG_STORE && code == DONE_CONSUMING_LOG_STORE ? 1 : 0;
    finished += !isFinished(slot, old) && isFinished(slot, code) ? 1 : 0;
    if (old == CONSUMING_LOG_STORE) {
      logStoreConsuming--;
      pendingSum -= as[slot];
    }
    if (code == CONSUMING_LOG_STORE) {
      logStoreConsuming++;
      pendingSum += a;
    }
    progressed |= newRows > oldRows || code != old || (code == CONSUMING_LOG_STORE && a < as[slot]);
    codes[slot] = code;
    // a source backfill's total shrinks when a partition's hand-off point is known: as reported
    as[slot] = code == CONSUMING_UPSTREAM && !source[slot] ? Math.max(as[slot], a) : a;
    rows[slot] = newRows;
  }

  boolean allFinished() {
    return finished == actorIds.length;
  }

  void setRateLimit(int slot, long rowsPerSecond) {
    rateLimits[slot] = rowsPerSecond;
  }

  /** Freezes the denominator from the snapshot epoch's stats (snapshot backfill). */
  void freeze(TableStatsLookup stats) {
    frozenKeyCount = keyCount(stats);
    frozenLiveRows = liveRows(stats);
  }

  private long keyCount(TableStatsLookup stats) {
    long sum = 0;
    for (int i = 0; i < tableIds.length; i++) {
      sum += scans[i] * Math.max(0, stats.totalKeyCount(tableIds[i]));
    }
    return sum;
  }

  private long liveRows(TableStatsLookup stats) {
    long sum = 0;
    for (int i = 0; i < tableIds.length; i++) {
      long live = stats.liveRowCount(tableIds[i]);
      if (live < 0) {
        return -1;
      }
      sum += scans[i] * live;
    }
    return sum;
  }

  /** Facts about the environment a commit's computation needs. */
  record Context(
      EpochPair epoch,
      boolean checkpoint,
      boolean clusterPaused,
      TableStatsLookup stats,
      long meanIntervalMs,
      ProgressConfig config) {}

  /** Recomputes this job's progress at a committed epoch. */
  JobProgress compute(Context ctx) {
    long nowMs = Epoch.physicalMs(ctx.epoch().curr());
    if (spec.mode() == BackfillMode.SNAPSHOT && frozenKeyCount < 0) {
      freeze(ctx.stats());
    }
    long keyCount = frozenKeyCount >= 0 ? frozenKeyCount : keyCount(ctx.stats());
    long live = frozenKeyCount >= 0 ? frozenLiveRows : liveRows(ctx.stats());
    long sourceTotal = sourceTotal();
    boolean exact = live >= 0;
    long denominator = tableActors > 0 ? (live >= 0 ? live : keyCount) : 0;
    if (tableActors < actorIds.length) {
      denominator = sourceTotal >= 0 ? denominator + sourceTotal : 0; // unknown until all reported
      exact = sourceTotal >= 0 && sourceExact() && (tableActors == 0 || live >= 0);
    }
    long consumed = tableRows + (tableActors < actorIds.length ? sourceRows : 0);
    double raw = denominator > 0 ? (double) consumed / denominator : Double.NaN;
    updateRate(nowMs, ctx.config());
    if (progressed) {
      lastChangeMs = nowMs;
      progressed = false;
    }
    boolean done = allFinished() && ctx.checkpoint();
    JobPhase phase;
    Optional<String> reason = Optional.empty();
    if (done) {
      phase = JobPhase.DONE;
      display = 1.0;
    } else {
      if (!Double.isNaN(raw)) {
        display = Math.max(display, Math.min(raw, MAX_BELOW_DONE));
      }
      reason = pauseReason(ctx.clusterPaused());
      if (reason.isEmpty()) {
        reason = stallReason(nowMs, ctx.config());
      }
      phase = phaseOf(reason, ctx.clusterPaused());
    }
    OptionalLong eta = OptionalLong.empty();
    if (!done && denominator > 0 && rate > 0) {
      eta = OptionalLong.of((long) Math.ceil(Math.max(0, denominator - consumed) / rate));
    }
    long lagMs =
        logStoreConsuming == 0 || ctx.meanIntervalMs() < 0
            ? 0
            : pendingSum * ctx.meanIntervalMs() / logStoreConsuming;
    return new JobProgress(
        spec.jobId(),
        ctx.epoch().curr(),
        spec.mode(),
        phase,
        tableRows,
        sourceRows,
        Math.max(0, sourceTotal),
        keyCount,
        live >= 0 ? OptionalLong.of(live) : OptionalLong.empty(),
        exact,
        raw,
        display,
        Double.isNaN(rate) ? 0 : rate,
        eta,
        pendingSum,
        lagMs,
        snapshotDone,
        logStoreDone,
        actorIds.length,
        tableActors,
        reason);
  }

  private JobPhase phaseOf(Optional<String> reason, boolean clusterPaused) {
    if (allFinished()) {
      return JobPhase.FINISHING;
    }
    if (reason.isPresent()) {
      return pauseReason(clusterPaused).isPresent() ? JobPhase.PAUSED : JobPhase.STALLED;
    }
    for (int i = 0; i < actorIds.length; i++) {
      if (codes[i] < DONE && rateLimits[i] > 0) {
        return JobPhase.THROTTLED;
      }
    }
    return spec.mode() == BackfillMode.SNAPSHOT && snapshotDone == actorIds.length
        ? JobPhase.LOG_STORE
        : JobPhase.SNAPSHOT;
  }

  private Optional<String> pauseReason(boolean clusterPaused) {
    if (allFinished()) {
      return Optional.empty();
    }
    if (clusterPaused) {
      return Optional.of("paused: the cluster is paused");
    }
    int limitedToZero = 0;
    int unfinished = 0;
    for (int i = 0; i < actorIds.length; i++) {
      if (codes[i] < DONE) {
        unfinished++;
        limitedToZero += rateLimits[i] == 0 ? 1 : 0;
      }
    }
    if (unfinished > 0 && limitedToZero == unfinished) {
      return Optional.of(
          "paused: backfill rate limit is 0 on all " + unfinished + " unfinished actors");
    }
    return Optional.empty();
  }

  private Optional<String> stallReason(long nowMs, ProgressConfig config) {
    long idleMs = nowMs - lastChangeMs;
    if (allFinished() || idleMs < config.stallThresholdMs()) {
      return Optional.empty();
    }
    String idle = ProgressRendering.duration(idleMs);
    if (reported < actorIds.length) {
      return Optional.of(
          (actorIds.length - reported)
              + " of "
              + actorIds.length
              + " backfill actors have not reported for "
              + idle);
    }
    if (snapshotDone == actorIds.length && logStoreConsuming > 0) {
      return Optional.of(
          "log store not draining for " + idle + ": " + pendingSum + " upstream barriers pending");
    }
    boolean onlySources = true;
    for (int i = 0; i < actorIds.length; i++) {
      onlySources &= source[i] || isFinished(i, codes[i]);
    }
    if (onlySources) {
      // a source backfill only stops reading when its external system does not answer
      return Optional.of(
          "no offsets read for "
              + idle
              + ": the source's Kafka cluster may be unreachable (or the view cannot keep up)");
    }
    return Optional.of("no rows consumed for " + idle);
  }

  private void updateRate(long nowMs, ProgressConfig config) {
    long total = tableRows + sourceRows;
    if (lastPhysicalMs >= 0 && nowMs > lastPhysicalMs) {
      long dt = nowMs - lastPhysicalMs;
      double inst = (total - lastRows) * 1000.0 / dt;
      double alpha = 1 - Math.exp(-(double) dt / config.rateTimeConstantMs());
      rate = Double.isNaN(rate) ? inst : rate + alpha * (inst - rate);
    }
    if (nowMs > lastPhysicalMs) {
      lastPhysicalMs = nowMs;
      lastRows = total;
    }
  }

  /**
   * Σ of the source backfill actors' offset totals ({@link SourceTotal}, 0 for an actor with
   * nothing to read); -1 until every one of them reported.
   */
  private long sourceTotal() {
    long sum = 0;
    for (int i = 0; i < actorIds.length; i++) {
      if (source[i]) {
        if (codes[i] == 0) {
          return -1;
        }
        sum += SourceTotal.total(as[i]);
      }
    }
    return sum;
  }

  private boolean sourceExact() {
    for (int i = 0; i < actorIds.length; i++) {
      if (source[i] && !SourceTotal.exact(as[i])) {
        return false;
      }
    }
    return true;
  }

  BackfillState state(int slot) {
    return BackfillState.decode(codes[slot], as[slot], rows[slot]);
  }

  /** Restores per-actor states and rate limits (snapshot restore). */
  void restoreStates(List<BackfillState> states, Map<Integer, Long> limits) {
    for (int i = 0; i < states.size(); i++) {
      BackfillState s = states.get(i);
      if (s.code() != BackfillState.INIT) {
        apply(i, s.code(), s.a(), s.consumedRows());
      }
      Long limit = limits.get(actorIds[i]);
      rateLimits[i] = limit == null ? -1 : limit;
    }
    progressed = false;
  }

  TrackerSnapshot.JobSnapshot snapshot() {
    List<BackfillState> states = new ArrayList<>(actorIds.length);
    Map<Integer, Long> limits = new HashMap<>();
    for (int i = 0; i < actorIds.length; i++) {
      states.add(state(i));
      if (rateLimits[i] >= 0) {
        limits.put(actorIds[i], rateLimits[i]);
      }
    }
    return new TrackerSnapshot.JobSnapshot(
        spec,
        frozenKeyCount,
        frozenLiveRows,
        states,
        limits,
        display,
        rate,
        lastPhysicalMs,
        lastRows,
        lastChangeMs);
  }

  long consumedRows() {
    return tableRows;
  }

  long sourceRows() {
    return sourceRows;
  }
}

package dev.tideway.meta.dashboard;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.barrier.BarrierObserver;
import dev.tideway.meta.progress.ProgressSnapshotCodec;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.VersionPointer;
import dev.tideway.protocol.meta.DdlCommand;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The leader's memory of the last hour for the dashboard, fed by the barrier loop:
 *
 * <ol>
 *   <li>{@link #onCollected}: inject→collect latency into this second's p50/p99
 *   <li>{@link #onCommitted}: the checkpoint's commit duration; inject→commit latency (the
 *       checkpoint's collect latency plus its commit) into this second's p50/p99
 *   <li>{@link #onEpochCommitted}: the barriers collected since the last commit count as epochs
 *       committed in this second
 *   <li>{@link #onTableStats}: the committed version's stats, kept for the rows per job
 *   <li>{@link #onProgress}, last: each creating job's shown fraction, rate, ETA and rows at the
 *       epoch's second; each job's rows in and out per second since the last commit; a job that
 *       finished gets its history entry ({@link ProgressAccuracy}) submitted to the DDL service
 *   <li>{@link #onRecovery}: an event with its cause
 * </ol>
 *
 * Rows in of a job: snapshot rows its backfill consumed plus key versions written to the tables it
 * scans; rows out: key versions written to its own table (both from the committed version's key
 * counts, so compaction, which lowers them, shows as 0 rather than negative).
 *
 * <p>Thread confinement: the callbacks run on the barrier loop's owner thread (one writer per
 * ring); HTTP threads read the rings and {@link #recoveries()}.
 */
public final class DashboardRecorder implements BarrierObserver {
  /** Rows kept per ring: an hour of seconds. */
  public static final int SECONDS = 3600;

  /** Columns of {@link #barriers()}. */
  public static final List<String> BARRIER_COLUMNS =
      List.of(
          "collectP50Ms",
          "collectP99Ms",
          "commitP50Ms",
          "commitP99Ms",
          "checkpointCommitMs",
          "epochsCommitted");

  /** Columns of {@link #progress(long)}. */
  public static final List<String> PROGRESS_COLUMNS =
      List.of("fraction", "rowsPerSecond", "etaSeconds", "consumedRows", "sampledAtMs");

  /** Columns of {@link #flow(long)}. */
  public static final List<String> FLOW_COLUMNS = List.of("rowsInPerSecond", "rowsOutPerSecond");

  static final int COLLECT_P50 = 0;
  static final int COLLECT_P99 = 1;
  static final int COMMIT_P50 = 2;
  static final int COMMIT_P99 = 3;
  static final int CHECKPOINT_MS = 4;
  static final int EPOCHS = 5;
  static final int FRACTION = 0;
  static final int RATE = 1;
  static final int ETA = 2;
  static final int CONSUMED = 3;

  /** The exact time of a progress row's sample (its epoch's), for rates between samples. */
  static final int SAMPLED_AT = 4;

  static final int MAX_EVENTS = 256;

  /** A recovery, as the charts mark it. */
  public record Event(long atMs, String cause) {}

  private final Clock clock;
  private final Supplier<Optional<CatalogState>> catalog;
  private final Consumer<DdlCommand> submit;
  private final SeriesRing barriers = new SeriesRing(SECONDS, BARRIER_COLUMNS.size());
  private final Map<Long, SeriesRing> progress = new ConcurrentHashMap<>();
  private final Map<Long, SeriesRing> flow = new ConcurrentHashMap<>();
  private volatile List<Event> recoveries = List.of();

  // owner thread only
  private final Samples collect = new Samples();
  private final Samples commit = new Samples();
  private double lastCheckpointCollectMs;
  private int epochsSinceCommit;
  private TableStatsLookup stats;
  private long lastFlowMs = -1;
  private final Map<Integer, Long> lastKeys = new HashMap<>();
  private final Map<Long, Long> lastConsumed = new HashMap<>();
  private final Map<Integer, Set<Integer>> upstreams = new HashMap<>();

  /**
   * @param catalog the leader's catalog (names, definitions, the jobs and their tables)
   * @param submit sends a history entry's command to the DDL service (asynchronously)
   */
  public DashboardRecorder(
      Clock clock, Supplier<Optional<CatalogState>> catalog, Consumer<DdlCommand> submit) {
    this.clock = clock;
    this.catalog = catalog;
    this.submit = submit;
  }

  @Override
  public void onCollected(String kind, double seconds) {
    long now = clock.currentTimeMillis();
    double ms = seconds * 1000;
    epochsSinceCommit++;
    if ("CHECKPOINT".equals(kind)) {
      lastCheckpointCollectMs = ms;
    }
    int row = barriers.row(now);
    collect.add(now, ms);
    barriers.set(row, COLLECT_P50, collect.percentile(0.50));
    barriers.set(row, COLLECT_P99, collect.percentile(0.99));
  }

  @Override
  public void onCommitted(double seconds) {
    long now = clock.currentTimeMillis();
    double ms = seconds * 1000;
    int row = barriers.row(now);
    commit.add(now, lastCheckpointCollectMs + ms);
    barriers.set(row, COMMIT_P50, commit.percentile(0.50));
    barriers.set(row, COMMIT_P99, commit.percentile(0.99));
    double before = barriers.get(row, CHECKPOINT_MS);
    barriers.set(row, CHECKPOINT_MS, Double.isNaN(before) ? ms : Math.max(before, ms));
  }

  @Override
  public void onEpochCommitted(long epoch, VersionPointer pointer) {
    int row = barriers.row(clock.currentTimeMillis());
    double before = barriers.get(row, EPOCHS);
    barriers.set(row, EPOCHS, (Double.isNaN(before) ? 0 : before) + epochsSinceCommit);
    epochsSinceCommit = 0;
  }

  @Override
  public void onRecovery(String cause) {
    List<Event> next = new ArrayList<>(recoveries);
    next.add(new Event(clock.currentTimeMillis(), cause));
    while (next.size() > MAX_EVENTS) {
      next.remove(0);
    }
    recoveries = List.copyOf(next);
    epochsSinceCommit = 0;
  }

  @Override
  public void onTableStats(TableStatsLookup stats) {
    this.stats = stats;
  }

  @Override
  public void onProgress(ProgressUpdate u) {
    long t = Epoch.unixMillis(u.epoch());
    Optional<CatalogState> state = catalog.get();
    for (JobProgress p : u.jobs()) {
      SeriesRing ring =
          progress.computeIfAbsent(
              p.jobId(), id -> new SeriesRing(SECONDS, PROGRESS_COLUMNS.size()));
      int row = ring.row(t);
      ring.set(row, FRACTION, p.displayRatio());
      ring.set(row, RATE, p.rowsPerSecond());
      ring.set(row, ETA, p.etaSeconds().isPresent() ? p.etaSeconds().getAsLong() : Double.NaN);
      ring.set(row, CONSUMED, p.totalConsumed());
      ring.set(row, SAMPLED_AT, t);
    }
    state.ifPresent(s -> recordFlow(s, u, t));
    for (long jobId : u.finishedJobIds()) {
      u.jobs().stream()
          .filter(p -> p.jobId() == jobId && p.actorsTotal() > 0) // a backfill, not a new table
          .findFirst()
          .ifPresent(p -> submit.accept(new DdlCommand.RecordBackfill(entry(state, p, t))));
    }
    progress.values().removeIf(r -> r.newest() < t - SECONDS * 1000L);
  }

  /** The history entry of a job that finished at {@code endMs}, from its progress samples. */
  BackfillHistory.Entry entry(Optional<CatalogState> state, JobProgress done, long endMs) {
    int id = Math.toIntExact(done.jobId());
    JobRecord job = state.map(s -> s.jobs().get(id)).orElse(null);
    CatalogObject o = state.map(s -> s.objects().get(id)).orElse(null);
    SeriesRing ring = progress.get(done.jobId());
    SeriesRing.Rows rows = ring == null ? null : ring.since(Long.MIN_VALUE);
    long[] times = new long[rows == null ? 0 : rows.size()];
    for (int i = 0; i < times.length; i++) {
      times[i] = (long) rows.columns()[SAMPLED_AT][i];
    }
    double[] consumed = rows == null ? new double[0] : rows.columns()[CONSUMED];
    double[] shown = rows == null ? new double[0] : rows.columns()[FRACTION];
    long start = job != null ? job.createdAtMs() : times.length > 0 ? times[0] : endMs;
    long finalRows = done.totalConsumed();
    ProgressAccuracy.Figures f =
        ProgressAccuracy.measure(times, consumed, shown, finalRows, start, endMs);
    return new BackfillHistory.Entry(
        id,
        o == null ? "" : o.name(),
        job == null ? "" : job.definition(),
        start,
        endMs,
        finalRows,
        f.avgRowsPerSecond(),
        f.peakRowsPerSecond(),
        f.error(),
        f.errorAtMs(),
        times.length,
        done.denominatorExact());
  }

  /** Rows in and out per second of every job since the last commit's figures. */
  private void recordFlow(CatalogState s, ProgressUpdate u, long t) {
    TableStatsLookup st = stats;
    if (st == null) {
      return;
    }
    Map<Long, Long> consumed = new HashMap<>();
    u.jobs().forEach(p -> consumed.put(p.jobId(), p.totalConsumed()));
    Map<Integer, Long> keys = new HashMap<>();
    double dt = lastFlowMs < 0 ? Double.NaN : (t - lastFlowMs) / 1000.0;
    for (JobRecord j : s.jobs().values()) {
      Set<Integer> up = upstreams.computeIfAbsent(j.jobId(), id -> upstreamTables(j));
      double in = 0;
      for (int table : up) {
        in += written(keys, st, table);
      }
      long c = consumed.getOrDefault((long) j.jobId(), -1L);
      Long before = lastConsumed.get((long) j.jobId());
      if (c >= 0 && before != null) {
        in += Math.max(0, c - before);
      }
      double out = written(keys, st, j.jobId());
      if (dt > 0) {
        SeriesRing ring =
            flow.computeIfAbsent(
                (long) j.jobId(), id -> new SeriesRing(SECONDS, FLOW_COLUMNS.size()));
        int row = ring.row(t);
        ring.set(row, 0, in / dt);
        ring.set(row, 1, out / dt);
      }
    }
    lastKeys.clear();
    lastKeys.putAll(keys);
    lastConsumed.clear();
    lastConsumed.putAll(consumed);
    lastFlowMs = t;
    flow.keySet().removeIf(id -> !s.jobs().containsKey(Math.toIntExact(id)));
    upstreams.keySet().removeIf(id -> !s.jobs().containsKey(id));
  }

  /** Key versions written to {@code table} since the last figures (0 at the first). */
  private double written(Map<Integer, Long> keys, TableStatsLookup st, int table) {
    long now = keys.computeIfAbsent(table, st::totalKeyCount);
    Long before = lastKeys.get(table);
    return before == null ? 0 : Math.max(0, now - before);
  }

  private static Set<Integer> upstreamTables(JobRecord j) {
    byte[] snap = j.progressSnapshot();
    if (snap.length == 0) {
      return Set.of();
    }
    try {
      return Set.copyOf(ProgressSnapshotCodec.decode(snap).job().spec().scansByTable().keySet());
    } catch (RuntimeException e) {
      return Set.of();
    }
  }

  /** The barrier loop's series newer than {@code sinceMs}. */
  public SeriesRing.Rows barriers(long sinceMs) {
    return barriers.since(sinceMs);
  }

  /** Job {@code jobId}'s progress series newer than {@code sinceMs}; empty if none. */
  public Optional<SeriesRing.Rows> progress(long jobId, long sinceMs) {
    return Optional.ofNullable(progress.get(jobId)).map(r -> r.since(sinceMs));
  }

  /** Job {@code jobId}'s rows in and out newer than {@code sinceMs}; empty if none. */
  public Optional<SeriesRing.Rows> flow(long jobId, long sinceMs) {
    return Optional.ofNullable(flow.get(jobId)).map(r -> r.since(sinceMs));
  }

  /** Recoveries of the last {@value #MAX_EVENTS}, oldest first. */
  public List<Event> recoveries() {
    return recoveries;
  }

  /** The samples of the current second, for its percentiles (owner thread). */
  private static final class Samples {
    private long second = Long.MIN_VALUE;
    private double[] values = new double[16];
    private int size;

    void add(long nowMs, double v) {
      long s = nowMs - Math.floorMod(nowMs, 1000L);
      if (s != second) {
        second = s;
        size = 0;
      }
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = v;
    }

    /** Nearest-rank percentile of this second's samples. */
    double percentile(double q) {
      double[] sorted = Arrays.copyOf(values, size);
      Arrays.sort(sorted);
      int rank = (int) Math.ceil(q * size);
      return sorted[Math.max(0, Math.min(size - 1, rank - 1))];
    }
  }
}

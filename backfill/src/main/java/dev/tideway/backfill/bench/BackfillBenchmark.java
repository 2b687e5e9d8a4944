package dev.tideway.backfill.bench;

import dev.tideway.backfill.Backfills;
import dev.tideway.backfill.core.BackfillOptions;
import dev.tideway.backfill.core.SnapshotScan;
import dev.tideway.backfill.state.BackfillStateTable;
import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.progress.BackfillActor;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.barrier.progress.CreateMviewProgressTracker;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.JobSpec;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.barrier.progress.TableStatsView;
import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code tideway bench backfill [--rows N] [--kind arrangement|no-shuffle|snapshot] [--churn 0..1]
 * [--interval-ms 100] [--seed S]}: loads N rows, creates an MV over the table while a writer keeps
 * changing it, and measures the backfill against a plain storage scan of the same snapshot, and the
 * meta-side progress ({@link CreateMviewProgressTracker}, fed the committed reports and the
 * committed version's stats) against the true fraction of snapshot rows consumed.
 *
 * <p>Figures: {@code backfill_rows_per_s} (snapshot rows / time spent inside the backfill executor
 * until its snapshot is exhausted: the simulated writer, syncs and commits are excluded), {@code
 * raw_scan_rows_per_s} (rows / time of a decoded storage scan of the same snapshot, second of two
 * runs), {@code ratio}, {@code progress_max_abs_error} (max over committed epochs of |displayRatio
 * − consumed / (consumed + live rows beyond the positions)|, the latter at the read snapshot for
 * the snapshot kind), {@code progress_monotone}, {@code eta_error_at_50pct} (|ETA − actual
 * remaining| / actual remaining, in epoch time, at the first commit past 50%). Churn: the writer
 * changes about {@code churn × N} rows over a backfill that runs at half the raw scan speed (half
 * updates, a quarter deletes, a quarter inserts).
 *
 * <p>Single-threaded driver; storage runs its own upload and version threads.
 */
public final class BackfillBenchmark implements Benchmark {
  private static final int STATE_TABLE_ID = 31;
  private static final int ACTOR = 1;

  @Override
  public String name() {
    return "backfill";
  }

  @Override
  public String description() {
    return "backfill an MV over N rows under churn: rows/s vs a raw scan, progress accuracy";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("rows", "kind", "churn", "interval-ms", "seed");
    long rows = options.getLong("rows", 2_000_000);
    BackfillKind kind = parseKind(options.values().getOrDefault("kind", "arrangement"));
    double churn = Double.parseDouble(options.values().getOrDefault("churn", "0"));
    if (churn < 0 || churn > 1) {
      throw new IllegalArgumentException("--churn must be in [0, 1], got " + churn);
    }
    long intervalMs = options.getLong("interval-ms", 100);
    long seed = options.getLong("seed", 42);
    try (Run r = new Run(rows, kind, churn, intervalMs, RandomSource.seeded(seed), out)) {
      r.execute();
    }
    out.flush();
  }

  static BackfillKind parseKind(String s) {
    return switch (s) {
      case "arrangement" -> BackfillKind.ARRANGEMENT;
      case "no-shuffle", "noshuffle" -> BackfillKind.NO_SHUFFLE;
      case "snapshot" -> BackfillKind.SNAPSHOT;
      default ->
          throw new IllegalArgumentException(
              "--kind must be arrangement, no-shuffle or snapshot, got '" + s + "'");
    };
  }

  /** One benchmark run. */
  private static final class Run implements AutoCloseable {
    private final long rows;
    private final BackfillKind kind;
    private final double churn;
    private final long intervalMs;
    private final RandomSource rnd;
    private final PrintWriter out;
    private final Clock clock = Clock.system();
    private final Storage storage;
    private final BenchTable table;
    private final Map<Long, ProgressBatch> reports = new HashMap<>();
    private final CreateMviewProgressTracker tracker =
        new CreateMviewProgressTracker(ProgressConfig.DEFAULT);
    private long epoch;
    private double rawWallRowsPerS;
    private double rawCpuRowsPerS;

    Run(
        long rows,
        BackfillKind kind,
        double churn,
        long intervalMs,
        RandomSource rnd,
        PrintWriter out) {
      this.rows = rows;
      this.kind = kind;
      this.churn = churn;
      this.intervalMs = intervalMs;
      this.rnd = rnd;
      this.out = out;
      this.storage =
          StateStores.open(
              "memory://",
              StorageOptions.defaults().withCompaction(false, 4, 256L << 20, 64L << 20));
      this.table = new BenchTable(storage);
    }

    private Barrier barrier(Mutation m) {
      long next = Epoch.next(epoch, clock);
      Barrier b = new Barrier(new EpochPair(next, epoch), BarrierKind.CHECKPOINT, m);
      epoch = next;
      return b;
    }

    private void commit(long e) {
      SyncResult r = storage.sync(e).join();
      storage.commitEpoch(r.epoch(), r.ssts(), r.statsDelta());
    }

    void execute() {
      long t0 = clock.nanoTime();
      load();
      out.printf("load_rows=%d%nload_ms=%d%n", rows, (clock.nanoTime() - t0) / 1_000_000);
      long committed = storage.committedEpoch();
      rawScan(committed);
      rawCpuRowsPerS = rawScan(committed);
      backfill(rawWallRowsPerS);
    }

    private void load() {
      storage.registerChangeLog(BenchTable.DESC.tableId(), 0);
      epoch = Epoch.now(clock).value();
      table.stateTable().init(epoch);
      long left = rows;
      while (left > 0) {
        int n = (int) Math.min(left, 200_000);
        table.insert(n, rnd);
        left -= n;
        Barrier b = barrier(null);
        table.stateTable().commit(b.curr(), b.prev());
        commit(b.prev());
      }
      storage.compactNow(true);
    }

    private double rawScan(long at) {
      long t0 = cpuNanos();
      long w0 = clock.nanoTime();
      long n = 0;
      try (StateTable.CloseableRows it =
          StateTable.readCommitted(
              storage, BenchTable.DESC.tableId(), StateTables.codecs(BenchTable.DESC), at)) {
        while (it.hasNext()) {
          Row r = it.next();
          n += r.size() > 0 ? 1 : 0;
        }
      }
      rawWallRowsPerS = n * 1e9 / Math.max(1, clock.nanoTime() - w0);
      return n * 1e9 / Math.max(1, cpuNanos() - t0);
    }

    private Executor build(BenchUpstream up) {
      TableDesc stateDesc = BackfillStateTable.layout(STATE_TABLE_ID, "bench_bf", BenchTable.DESC);
      StreamNode.StreamScan scan =
          new StreamNode.StreamScan(BenchTable.DESC.tableId(), List.of(0, 1, 2), kind, stateDesc);
      CreateMviewProgressReporter reporter =
          new CreateMviewProgressReporter(
              ACTOR,
              (ep, actor, code, a, n) ->
                  reports
                      .computeIfAbsent(ep.prev(), k -> new ProgressBatch(2))
                      .add(actor, code, a, n));
      BitSet all = new BitSet();
      all.set(0, 256);
      return Backfills.create(
          new Backfills.Args(
              scan,
              BenchTable.DESC,
              up,
              storage,
              all,
              new ExecutorInfo(ACTOR, 2, "StreamScan"),
              reporter,
              clock,
              BackfillOptions.DEFAULT));
    }

    private void backfill(double rawRowsPerS) {
      BenchUpstream up = new BenchUpstream(BenchTable.DESC.schema(), clock);
      Executor ex = build(up);
      BackfillMode mode =
          kind == BackfillKind.SNAPSHOT ? BackfillMode.SNAPSHOT : BackfillMode.ARRANGEMENT;
      tracker.register(
          new JobSpec(
              1, mode, List.of(BackfillActor.table(ACTOR)), Map.of(BenchTable.DESC.tableId(), 1)),
          null,
          epoch);
      // changes per epoch so that ~churn × rows change over a backfill at half the raw speed
      double expectedMs = 2 * 1000.0 * rows / rawRowsPerS;
      long changesPerEpoch =
          Math.round(churn * rows * intervalMs / Math.max(expectedMs, intervalMs));
      Measure m = new Measure();
      Barrier b = barrier(new Mutation.Add(java.util.Set.of(ACTOR), Map.of(), Map.of(), false));
      table.stateTable().commit(b.curr(), b.prev());
      if (kind == BackfillKind.SNAPSHOT) {
        table.freeze();
      }
      long deadline = clock.nanoTime();
      up.push(deadline, b);
      while (true) {
        runUntilBarrier(ex, m);
        afterBarrier(ex, b, m);
        if (m.logDoneMs >= 0 || (kind != BackfillKind.SNAPSHOT && m.finishMs >= 0)) {
          break;
        }
        deadline += intervalMs * 1_000_000L;
        long wt0 = clock.nanoTime();
        List<StreamChunk> chunks = new ArrayList<>();
        long left = changesPerEpoch;
        while (left > 0) {
          int n = (int) Math.min(left, 256);
          chunks.add(table.churn(n, rnd));
          left -= n;
        }
        m.changes += changesPerEpoch;
        b = barrier(null);
        table.stateTable().commit(b.curr(), b.prev());
        m.writerNanos += clock.nanoTime() - wt0;
        for (int i = 0; i < chunks.size(); i++) {
          up.push(
              deadline - intervalMs * 1_000_000L * (chunks.size() - i) / (chunks.size() + 1),
              Message.of(chunks.get(i)));
        }
        up.push(deadline, b);
      }
      m.print(out, rawCpuRowsPerS, rawWallRowsPerS, rows);
    }

    private void runUntilBarrier(Executor ex, Measure m) {
      while (true) {
        long t0 = clock.nanoTime();
        long c0 = cpuNanos();
        Message msg = ex.next();
        long dt = clock.nanoTime() - t0;
        if (m.finishMs < 0) {
          m.backfillNanos += dt;
          m.backfillCpuNanos += cpuNanos() - c0;
        }
        if (msg == null || msg instanceof Barrier) {
          return;
        }
        if (msg instanceof Message.Chunk c) {
          m.rowsOut += c.chunk().cardinality();
        }
      }
    }

    /** The true fraction at this barrier, commit, tracker update and comparison. */
    private void afterBarrier(Executor ex, Barrier b, Measure m) {
      SnapshotScan scan = scanOf(ex);
      long consumed = scan.totalRows();
      long remaining = 0;
      for (int v = 0; v < 256; v++) {
        remaining += table.remaining(v, scan.progress(v), kind == BackfillKind.SNAPSHOT);
      }
      double truth = consumed + remaining == 0 ? 1 : (double) consumed / (consumed + remaining);
      commit(b.prev());
      ProgressBatch batch = reports.remove(b.prev());
      List<TableStatsView> views = new ArrayList<>();
      storage
          .tableStats()
          .forEach(
              (id, s) -> views.add(new TableStatsView(id, s.totalKeyCount(), s.liveRowCount())));
      var update =
          tracker.onEpochCommitted(
              b.epoch(),
              true,
              batch == null ? List.of() : List.of(batch),
              TableStatsLookup.of(views));
      JobProgress p = update.jobs().isEmpty() ? null : update.jobs().get(0);
      long nowMs = Epoch.physicalMs(b.prev());
      BackfillState st = tracker.actorState(ACTOR).orElse(null);
      boolean snapshotDone = st == null || st.code() >= BackfillState.DONE;
      if (p != null && !snapshotDone) {
        m.observe(p, truth, nowMs);
      }
      if (snapshotDone && m.finishMs < 0) {
        m.finishMs = nowMs;
        m.snapshotRows = consumed;
      }
      if (st == null || st.code() == BackfillState.DONE_CONSUMING_LOG_STORE) {
        m.logDoneMs = nowMs;
      }
    }

    private static SnapshotScan scanOf(Executor ex) {
      if (ex instanceof dev.tideway.backfill.arrangement.ArrangementBackfillExecutor a) {
        return a.scan();
      }
      if (ex instanceof dev.tideway.backfill.noshuffle.NoShuffleBackfillExecutor n) {
        return n.scan();
      }
      return ((dev.tideway.backfill.snapshot.SnapshotBackfillExecutor) ex).scan();
    }

    @Override
    public void close() {
      storage.close();
    }
  }

  /**
   * CPU time of the driver thread: the backfill and the raw scan both run on it, so comparing CPU
   * times keeps the ratio meaningful on a machine shared with other work.
   */
  static long cpuNanos() {
    return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }
}

package dev.tideway.barrier.bench;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.global.BarrierDecision;
import dev.tideway.barrier.global.GlobalBarrierCore;
import dev.tideway.barrier.global.NodeActors;
import dev.tideway.barrier.global.Topology;
import dev.tideway.barrier.local.LocalBarrierEnvironment;
import dev.tideway.barrier.local.LocalBarrierManager;
import dev.tideway.barrier.local.SyncRequest;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.progress.BackfillActor;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.barrier.progress.CreateMviewProgressTracker;
import dev.tideway.barrier.progress.JobSpec;
import dev.tideway.barrier.progress.ProgressBatch;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.barrier.progress.TableStatsLookup;
import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.time.Clock;
import dev.tideway.common.time.ManualClock;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code tideway bench barrier [--nodes 100 --actors-per-node 100 --epochs 1000 --jobs 100]}.
 *
 * <p>Meta side: drives {@link GlobalBarrierCore} and {@link CreateMviewProgressTracker} with
 * simulated completions: every actor is a backfill actor of one of the creating jobs and reports on
 * every barrier; each epoch is inject + one completion per node + commit + progress of every job.
 * Filling the simulated nodes' report batches is timed apart and not counted. Compute side: one
 * {@link LocalBarrierManager} with {@code actors-per-node} actors, each reporting through its
 * {@link CreateMviewProgressReporter} and collecting every barrier. Epochs come from a manual clock
 * (no waiting). Figures named without "wall" are this thread's CPU time, so preemption on a shared
 * machine does not inflate them; the wall-clock figures are printed beside them.
 */
public final class BarrierBenchmark implements Benchmark {
  private static final Clock TIMER = Clock.system();
  private static final java.lang.management.ThreadMXBean THREADS =
      ManagementFactory.getThreadMXBean();

  /** This thread's CPU time in ns: preemption on a shared machine does not count. */
  static long cpuNanos() {
    return THREADS.getCurrentThreadCpuTime();
  }

  @Override
  public String name() {
    return "barrier";
  }

  @Override
  public String description() {
    return "meta barrier core + progress tracker per epoch, and progress reporter per update";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("nodes", "actors-per-node", "epochs", "jobs", "warmup-epochs");
    int nodes = (int) options.getLong("nodes", 100);
    int perNode = (int) options.getLong("actors-per-node", 100);
    int epochs = (int) options.getLong("epochs", 1000);
    int jobs = (int) options.getLong("jobs", 100);
    int warmup = (int) options.getLong("warmup-epochs", 300);
    MetaRun meta = new MetaRun(nodes, perNode, jobs, warmup + epochs + 10);
    meta.run(warmup);
    long allocBefore = allocatedBytes();
    long[] perEpochNs = meta.run(epochs);
    long alloc = allocatedBytes() - allocBefore;
    long[] sorted = perEpochNs.clone();
    Arrays.sort(sorted);
    double metaWallUs = Arrays.stream(perEpochNs).average().orElse(0) / 1000.0;
    double metaUs = meta.cpuNs / 1000.0 / epochs;
    LocalRun local = new LocalRun(perNode);
    local.run(warmup);
    local.reset();
    local.run(epochs);
    double reporterNs = (double) local.updateCpuNs / ((long) epochs * perNode);
    double reporterWallNs = (double) local.updateNs / ((long) epochs * perNode);
    double localUs = local.totalNs / 1000.0 / epochs;
    out.printf(
        "nodes=%d%nactors_per_node=%d%nactors=%d%njobs=%d%nepochs=%d%n",
        nodes, perNode, nodes * perNode, jobs, epochs);
    out.println(kv("meta_us_per_epoch", metaUs));
    out.println(kv("meta_ns_per_actor_report", metaUs * 1000.0 / (nodes * perNode)));
    out.println(kv("meta_wall_us_per_epoch_mean", metaWallUs));
    out.println(kv("meta_wall_us_per_epoch_p50", sorted[sorted.length / 2] / 1000.0));
    out.println(kv("meta_wall_us_per_epoch_p99", sorted[(int) (sorted.length * 0.99)] / 1000.0));
    out.println(kv("sim_fill_us_per_epoch", meta.fillNs / 1000.0 / epochs));
    out.println(kv("meta_alloc_bytes_per_epoch", alloc < 0 ? -1 : (double) alloc / epochs));
    out.println(kv("reporter_ns_per_update", reporterNs));
    out.println(kv("reporter_wall_ns_per_update", reporterWallNs));
    out.println(kv("local_wall_us_per_epoch", localUs));
    out.printf(
        Locale.ROOT,
        "summary: meta %.1f us/epoch (thread CPU) at %d actors, target < 1000; reporter %.1f ns/update%n",
        metaUs,
        nodes * perNode,
        reporterNs);
    out.flush();
  }

  private static String kv(String key, double value) {
    return String.format(Locale.ROOT, "%s=%.2f", key, value);
  }

  /** Bytes allocated by this thread so far, or -1 when the JVM cannot tell. */
  private static long allocatedBytes() {
    var mx = ManagementFactory.getThreadMXBean();
    if (mx instanceof com.sun.management.ThreadMXBean sun && sun.isThreadAllocatedMemoryEnabled()) {
      return sun.getThreadAllocatedBytes(Thread.currentThread().getId());
    }
    return -1;
  }

  /** The meta side under simulated completions. */
  private static final class MetaRun {
    private final ManualClock clock = new ManualClock(Epoch.BASE_UNIX_MS + 1_000_000_000L);
    private final GlobalBarrierCore<Object> core;
    private final CreateMviewProgressTracker tracker;
    private final int[][] actorsOfNode;
    private final int[] nodeIds;
    private final ProgressBatch[] batches;
    private final long[] rows;
    private final long[] keyCounts;
    private final TableStatsLookup stats;
    private Barrier injected;
    private BarrierDecision.CommitEpoch<Object> commit;
    private final BarrierCompleted<?>[] completions;
    long fillNs;
    long cpuNs;
    long checksum;

    MetaRun(int nodes, int perNode, int jobs, int maxEpochs) {
      core =
          new GlobalBarrierCore<>(
              new BarrierConfig(100, 1, 10, Long.MAX_VALUE / 4), clock, 0, this::onDecision);
      tracker = new CreateMviewProgressTracker(ProgressConfig.DEFAULT);
      actorsOfNode = new int[nodes][perNode];
      nodeIds = new int[nodes];
      batches = new ProgressBatch[nodes];
      completions = new BarrierCompleted<?>[nodes];
      rows = new long[nodes * perNode];
      keyCounts = new long[jobs];
      List<NodeActors> topo = new ArrayList<>();
      List<List<BackfillActor>> actorsOfJob = new ArrayList<>();
      for (int j = 0; j < jobs; j++) {
        actorsOfJob.add(new ArrayList<>());
        keyCounts[j] = (long) maxEpochs * 100 * (nodes * perNode / jobs + 1) * 2;
      }
      int[] tables = new int[jobs];
      for (int j = 0; j < jobs; j++) {
        tables[j] = j;
      }
      for (int n = 0; n < nodes; n++) {
        nodeIds[n] = n + 1;
        for (int i = 0; i < perNode; i++) {
          int actor = n * perNode + i;
          actorsOfNode[n][i] = actor;
          actorsOfJob.get(actor % jobs).add(BackfillActor.table(actor));
        }
        batches[n] = new ProgressBatch(perNode);
        topo.add(new NodeActors(n + 1, new int[] {actorsOfNode[n][0]}, actorsOfNode[n], tables));
      }
      for (int j = 0; j < jobs; j++) {
        tracker.register(
            new JobSpec(j, BackfillMode.ARRANGEMENT, actorsOfJob.get(j), Map.of(j, 1)), null, 1);
      }
      stats =
          new TableStatsLookup() {
            @Override
            public long totalKeyCount(int tableId) {
              return keyCounts[tableId];
            }

            @Override
            public long liveRowCount(int tableId) {
              return -1;
            }
          };
      core.recovered(new Topology(topo));
      completeAll(injected, false);
    }

    private void onDecision(BarrierDecision<Object> d) {
      if (d instanceof BarrierDecision.Inject<Object> inj) {
        injected = inj.barrier();
      } else if (d instanceof BarrierDecision.CommitEpoch<Object> c) {
        commit = c;
      }
    }

    /** Runs {@code epochs} barriers; returns the meta wall time of each (fill excluded). */
    long[] run(int epochs) {
      long[] ns = new long[epochs];
      fillNs = 0;
      cpuNs = 0;
      for (int e = 0; e < epochs; e++) {
        clock.advanceMillis(100);
        long c0 = cpuNanos();
        long t0 = TIMER.nanoTime();
        core.tick();
        long inject = TIMER.nanoTime() - t0;
        cpuNs += cpuNanos() - c0;
        ns[e] = inject + completeAll(injected, true);
      }
      return ns;
    }

    /** Fills every node's report batch (not timed as meta), then feeds completions + commit. */
    private long completeAll(Barrier b, boolean report) {
      EpochPair ep = b.epoch();
      long f0 = TIMER.nanoTime();
      for (int n = 0; n < batches.length; n++) {
        ProgressBatch batch = batches[n];
        batch.clear();
        if (report) {
          for (int actor : actorsOfNode[n]) {
            rows[actor] += 100;
            batch.add(actor, BackfillState.CONSUMING_UPSTREAM, ep.prev(), rows[actor]);
          }
        }
        completions[n] =
            new BarrierCompleted<>(
                nodeIds[n], core.generation(), ep, b.kind(), List.of(), List.of(), batch);
      }
      long c0 = cpuNanos();
      long t0 = TIMER.nanoTime();
      fillNs += t0 - f0;
      for (int n = 0; n < batches.length; n++) {
        @SuppressWarnings("unchecked")
        BarrierCompleted<Object> c = (BarrierCompleted<Object>) completions[n];
        core.onCompleted(c);
      }
      if (commit != null) {
        ProgressUpdate u = tracker.onEpochCommitted(commit.epoch(), true, commit.progress(), stats);
        checksum += u.jobs().size();
        commit = null;
      }
      long metaNs = TIMER.nanoTime() - t0;
      cpuNs += cpuNanos() - c0;
      return metaNs;
    }
  }

  /** The compute side: one node's local barrier manager and its actors' reporters. */
  private static final class LocalRun implements LocalBarrierEnvironment<Object> {
    private final LocalBarrierManager<Object> lbm = new LocalBarrierManager<>(1, this);
    private final int[] actors;
    private final CreateMviewProgressReporter[] reporters;
    private final ManualClock clock = new ManualClock(Epoch.BASE_UNIX_MS + 1_000_000_000L);
    private long prev;
    private final long[] rows;
    long updateNs;
    long updateCpuNs;
    long totalNs;

    LocalRun(int perNode) {
      actors = new int[perNode];
      reporters = new CreateMviewProgressReporter[perNode];
      rows = new long[perNode];
      for (int i = 0; i < perNode; i++) {
        actors[i] = i;
        reporters[i] = lbm.registerProgressReporter(i);
      }
      prev = Epoch.now(clock).value();
    }

    void reset() {
      updateNs = 0;
      updateCpuNs = 0;
      totalNs = 0;
    }

    void run(int epochs) {
      int[] send = {actors[0]};
      int[] none = new int[0];
      for (int e = 0; e < epochs; e++) {
        clock.advanceMillis(100);
        long curr = Epoch.next(prev, clock);
        EpochPair ep = new EpochPair(curr, prev);
        prev = curr;
        long t0 = TIMER.nanoTime();
        lbm.inject(
            new InjectBarrier(1, 0, Barrier.of(ep, BarrierKind.BARRIER), send, actors, none));
        long c1 = cpuNanos();
        long t1 = TIMER.nanoTime();
        for (int i = 0; i < actors.length; i++) {
          rows[i] += 100;
          reporters[i].update(ep, ep.prev(), rows[i]);
        }
        long t2 = TIMER.nanoTime();
        updateCpuNs += cpuNanos() - c1;
        for (int actor : actors) {
          lbm.collect(actor, ep);
        }
        long t3 = TIMER.nanoTime();
        updateNs += t2 - t1;
        totalNs += t3 - t0;
      }
    }

    @Override
    public void sendBarrier(int actorId, Barrier barrier) {}

    @Override
    public void sync(SyncRequest request) {}

    @Override
    public void completed(BarrierCompleted<Object> completed) {}

    @Override
    public void failed(NodeFailure failure) {}
  }
}

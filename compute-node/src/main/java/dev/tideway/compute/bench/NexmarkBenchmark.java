package dev.tideway.compute.bench;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.Temporals;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.compute.actor.ExecutorBuildContext;
import dev.tideway.compute.actor.ExecutorBuilders;
import dev.tideway.compute.actor.StreamActor;
import dev.tideway.compute.executor.build.ExecutorChains;
import dev.tideway.compute.executor.build.StatefulBuilder;
import dev.tideway.compute.executor.build.StatelessBuilder;
import dev.tideway.compute.executor.source.NexmarkConfig;
import dev.tideway.compute.executor.source.NexmarkSplitReader;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.table.StateTable;
import dev.tideway.storage.table.StateTables;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@code tideway bench nexmark --query q0|q1|q2|q5|q7 [--events N] [--parallelism P]
 * [--barrier-interval-ms I] [--store disk|memory] [--max-pending-syncs K]}: runs a Nexmark query in
 * process and compares it with a hand-written single-thread loop over the same generated events
 * ({@link RawLoop}).
 *
 * <p>Flow: (1) the raw loop runs; (2) P source actors ({@link StreamActor}, one thread each) are
 * built from the query's plan through the executor builders, actor k reading split k of P of the
 * bid generator. q0, q1 and q2 need no repartition, so each source actor runs the whole query
 * ({@code mode=chain-per-split}); q5 and q7 add the later fragments of their {@link LocalJob}, in
 * flow order, joined by local channels; (3) a {@link BarrierDriver} injects a barrier into the
 * source actors every interval (the later fragments get it in band, through their merges) and
 * commits the state store once every actor of every fragment collected it, and stops the actors
 * once the sources are exhausted; (4) figures are printed as {@code key=value}, the last line
 * {@code summary=...}.
 *
 * <p>The state store is Parquet files in a fresh temporary directory, deleted after the run, as a
 * compute node keeps them ({@code --store memory} keeps them on the heap instead: every SST then
 * lives in the JVM's heap, and the garbage collector copies and scans them, which a node never
 * pays).
 *
 * <p>Single-threaded apart from the actors; one instance per run.
 */
public final class NexmarkBenchmark implements Benchmark {
  private static final long DEFAULT_EVENTS = 5_000_000L;

  @Override
  public String name() {
    return "nexmark";
  }

  @Override
  public String description() {
    return "Nexmark q0/q1/q2/q5/q7 in process vs a hand-written loop (events/s, barrier latency)";
  }

  /** Runs the benchmark from the command line: {@code --query q0 --events 1000000 ...}. */
  public static void main(String[] args) {
    PrintWriter out = new PrintWriter(System.out, true);
    new NexmarkBenchmark().run(Options.parse(List.of(args)), out);
    out.flush();
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly(
        "query",
        "events",
        "parallelism",
        "barrier-interval-ms",
        "store",
        "max-pending-syncs",
        "shared-buffer-mb",
        "memtable-mb");
    String storeKind = options.values().getOrDefault("store", "disk");
    if (!storeKind.equals("disk") && !storeKind.equals("memory")) {
      throw new IllegalArgumentException("--store must be disk or memory, got '" + storeKind + "'");
    }
    NexmarkQuery query = NexmarkQuery.parse(options.values().getOrDefault("query", "q0"));
    long events = options.getLong("events", DEFAULT_EVENTS);
    int parallelism = (int) options.getLong("parallelism", 2);
    long intervalMs = options.getLong("barrier-interval-ms", 1000);
    StorageOptions d = StorageOptions.defaults();
    StorageOptions storage =
        d.withMemory(
                options.getLong("shared-buffer-mb", d.sharedBufferBytes() >> 20) << 20,
                options.getLong("memtable-mb", d.memtableBytes() >> 20) << 20)
            .withMaxPendingSyncs(
                (int)
                    options.getLong(
                        "max-pending-syncs", StorageOptions.defaults().maxPendingSyncs(), -1));
    Map<String, String> sourceOptions = sourceOptions(events, parallelism);
    Map<String, String> warmOptions = sourceOptions(Math.min(1_000_000, events / 5), parallelism);
    Clock clock = Clock.system();
    // warm the generator, the executors and the storage path (first sync) in both runs, so
    // neither is measured cold
    new RawLoop(query).run(NexmarkConfig.parse(warmOptions), clock);
    long rawCpu0 = processCpuNanos();
    RawLoop.Result raw = new RawLoop(query).run(NexmarkConfig.parse(sourceOptions), clock);
    long rawCpu = processCpuNanos() - rawCpu0;
    try {
      runEngine(query, warmOptions, parallelism, intervalMs, clock, storeKind, storage);
      long engineCpu0 = processCpuNanos();
      Engine e =
          runEngine(query, sourceOptions, parallelism, intervalMs, clock, storeKind, storage);
      long engineCpu = processCpuNanos() - engineCpu0;
      out.printf(
          "store=%s%n",
          storeKind.equals("disk") ? "disk (a fresh temporary directory)" : storeKind);
      print(out, query, events, parallelism, intervalMs, raw, e, rawCpu, engineCpu);
    } catch (Exception ex) {
      throw new IllegalStateException("nexmark " + query + " failed: " + ex.getMessage(), ex);
    }
  }

  private static Map<String, String> sourceOptions(long events, int parallelism) {
    return Map.of(
        "nexmark.table.type", "Bid",
        "nexmark.event.num", Long.toString(Math.max(1, events)),
        "nexmark.split.num", Integer.toString(parallelism));
  }

  /** What the engine run measured. */
  private record Engine(BarrierDriver.Result driver, long viewRows, long viewFingerprint) {}

  private static Engine runEngine(
      NexmarkQuery query,
      Map<String, String> sourceOptions,
      int parallelism,
      long intervalMs,
      Clock clock,
      String storeKind,
      StorageOptions storage)
      throws Exception {
    StreamPlanNode plan = query.plan(sourceOptions);
    List<String> splitIds =
        NexmarkSplitReader.allSplits(NexmarkConfig.parse(sourceOptions)).stream()
            .map(r -> r.splitId())
            .toList();
    Path dir = storeKind.equals("disk") ? Files.createTempDirectory("tideway-nexmark-") : null;
    String url = dir == null ? "memory://" : dir.toUri().toString();
    try (Storage store = StateStores.open(url, storage)) {
      TrackedNexmarkSource source = new TrackedNexmarkSource();
      Optional<LocalJob> job = query.localJob(parallelism);
      ExecutorBuilders builders =
          job.isPresent()
              ? ExecutorBuilders.of(
                  source, new StatelessBuilder(), new StatefulBuilder(), job.get().mergeBuilder())
              : ExecutorBuilders.of(source, new StatelessBuilder(), new StatefulBuilder());
      List<BarrierInbox> inboxes = new ArrayList<>();
      Map<Integer, Executor> roots = new LinkedHashMap<>();
      for (int k = 0; k < parallelism; k++) {
        int actorId = LocalJob.FIRST_SOURCE_ACTOR + k;
        BarrierInbox inbox = new BarrierInbox(actorId);
        inboxes.add(inbox);
        ExecutorBuildContext c =
            ctx(actorId, LocalJob.SOURCE_FRAGMENT, inbox, splitIds.get(k), clock, store);
        Executor chain = ExecutorChains.build(builders, c, plan);
        roots.put(actorId, job.isPresent() ? job.get().output(actorId, chain) : chain);
      }
      StreamPlanNode view = plan;
      if (job.isPresent()) {
        // in flow order: q7's channels are made as the source actors are wrapped (output)
        for (LocalJob.Fragment f : job.get().downstream()) {
          for (int id : f.actorIds()) {
            // barriers reach these actors in band, through their merges; the inbox stays empty
            ExecutorBuildContext c =
                ctx(id, f.fragmentId(), new BarrierInbox(id), null, clock, store);
            roots.put(id, job.get().output(id, ExecutorChains.build(builders, c, f.plan())));
          }
        }
        view = job.get().viewPlan();
      }
      BarrierDriver driver = new BarrierDriver(inboxes, roots.keySet(), store, clock, intervalMs);
      List<StreamActor> actors = new ArrayList<>();
      roots.forEach((id, root) -> actors.add(new StreamActor(id, root, driver)));
      actors.forEach(StreamActor::start);
      BarrierDriver.Result r;
      try {
        r = driver.run(source::allExhausted);
      } finally {
        for (StreamActor a : actors) {
          a.drop(5_000); // no-op for actors the stop barrier ended; stops the rest on failure
        }
      }
      long[] viewRows =
          query.materialized() ? readView(store, view, r.lastCommittedEpoch()) : new long[] {-1, 0};
      return new Engine(r, viewRows[0], viewRows[1]);
    } finally {
      if (dir != null) {
        deleteTree(dir);
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static ExecutorBuildContext ctx(
      int actorId, int fragmentId, BarrierInbox inbox, String split, Clock clock, Storage store) {
    BitSet all = new BitSet();
    all.set(0, 256);
    return new ExecutorBuildContext(
        actorId,
        fragmentId,
        all,
        inbox,
        split == null ? List.of() : List.of(split),
        clock,
        store,
        (epoch, actor, code, a, rows) -> {});
  }

  /** The view's row count and {@link RawLoop#fingerprint} sum as of {@code epoch}. */
  private static long[] readView(Storage store, StreamPlanNode plan, long epoch) {
    List<dev.tideway.common.types.DataType> types = plan.outputSchema().types();
    int[] pk = new int[types.size()];
    for (int i = 0; i < pk.length; i++) {
      pk[i] = i;
    }
    var codecs =
        StateTables.codecs(
            NexmarkQuery.MV_TABLE,
            types,
            pk,
            Collections.nCopies(pk.length, OrderType.ASC),
            new int[] {0});
    long n = 0;
    long fingerprint = 0;
    try (StateTable.CloseableRows rows =
        StateTable.readCommitted(store, NexmarkQuery.MV_TABLE, codecs, epoch)) {
      while (rows.hasNext()) {
        Row row = rows.next();
        long[] values = new long[row.size()];
        for (int c = 0; c < values.length; c++) {
          Object v = row.get(c);
          values[c] =
              v instanceof LocalDateTime t
                  ? Temporals.timestampToMicros(t)
                  : v instanceof Long l ? l : v == null ? 0 : v.hashCode();
        }
        fingerprint += RawLoop.fingerprint(values);
        n++;
      }
    }
    return new long[] {n, fingerprint};
  }

  private static void print(
      PrintWriter out,
      NexmarkQuery query,
      long events,
      int parallelism,
      long intervalMs,
      RawLoop.Result raw,
      Engine e,
      long rawCpu,
      long engineCpu) {
    double secs = e.driver().elapsedNanos() / 1e9;
    double eps = events / secs;
    double rawEps = events / (raw.elapsedNanos() / 1e9);
    List<Long> lat = new ArrayList<>(e.driver().barrierLatencyNanos());
    Collections.sort(lat);
    double p50 = percentileMs(lat, 0.50);
    double p99 = percentileMs(lat, 0.99);
    double eff = eps / rawEps;
    String q = query.name().toLowerCase();
    out.printf("query=%s%n", q);
    out.printf(
        "mode=%s%n",
        query
            .localJob(parallelism)
            .map(LocalJob::mode)
            .orElse("chain-per-split (P StreamActors, no exchange)"));
    out.printf("warmup=one raw and one engine run over min(1M, events/5) events first%n");
    out.printf("sink=%s%n", query.materialized() ? "materialize" : "blackhole");
    out.printf(
        "events=%d%nparallelism=%d%nbarrier_interval_ms=%d%n", events, parallelism, intervalMs);
    out.printf("elapsed_s=%.3f%n", secs);
    out.printf("events_per_s=%.0f%n", eps);
    out.printf("barriers=%d%n", lat.size());
    out.printf(
        "barrier_latencies_ms=%s%n",
        e.driver().barrierLatencyNanos().stream().map(n -> Long.toString(n / 1_000_000)).toList());
    out.printf("barrier_p50_ms=%.1f%nbarrier_p99_ms=%.1f%n", p50, p99);
    List<Long> collect = new ArrayList<>(e.driver().collectLatencyNanos());
    Collections.sort(collect);
    out.printf(
        "barrier_collect_p50_ms=%.1f%nbarrier_collect_p99_ms=%.1f%n",
        percentileMs(collect, 0.50), percentileMs(collect, 0.99));
    out.printf("raw_elapsed_s=%.3f%n", raw.elapsedNanos() / 1e9);
    out.printf("raw_events_per_s=%.0f%n", rawEps);
    out.printf("raw_output_rows=%d%n", raw.outputRows());
    if (query.materialized()) {
      out.printf("view_rows=%d%n", e.viewRows());
      // the rows themselves for q2 and q5 (q7's raw rows are not in the view's column order)
      boolean rowsMatch = query == NexmarkQuery.Q7 || e.viewFingerprint() == raw.viewFingerprint();
      out.printf("view_matches_raw=%s%n", e.viewRows() == raw.outputRows() && rowsMatch);
    }
    out.printf("efficiency=%.3f%n", eff);
    printCpu(out, rawCpu, engineCpu);
    out.printf(
        "summary=nexmark %s P=%d events=%d: %.0f events/s (raw %.0f, efficiency %.2f),"
            + " barrier p50 %.0f ms p99 %.0f ms%n",
        q, parallelism, events, eps, rawEps, eff, p50, p99);
  }

  /** CPU time of the whole process (every thread, GC included), or -1 when the JVM cannot say. */
  private static long processCpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }

  /**
   * CPU seconds of the raw loop and of the engine run and their ratio: on a machine shared with
   * other work wall-clock figures mostly measure the neighbours, CPU time much less so.
   */
  private static void printCpu(PrintWriter out, long rawCpu, long engineCpu) {
    if (rawCpu < 0 || engineCpu <= 0) {
      return;
    }
    out.printf("raw_cpu_s=%.3f%nengine_cpu_s=%.3f%n", rawCpu / 1e9, engineCpu / 1e9);
    out.printf("cpu_efficiency=%.3f%n", (double) rawCpu / engineCpu);
  }

  private static double percentileMs(List<Long> sorted, double p) {
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int i = (int) Math.min(sorted.size() - 1, Math.ceil(p * sorted.size()) - 1);
    return sorted.get(Math.max(0, i)) / 1e6;
  }
}

package dev.tideway.meta.version;

import dev.tideway.common.check.Checks;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.barrier.ComputeClient;
import dev.tideway.meta.barrier.GlobalBarrierManager;
import dev.tideway.meta.barrier.LeaderTask;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.VersionService;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The version manager's duties besides commits, while this process leads: compaction scheduling,
 * applying results, vacuum. Version checkpoints are written by the storage engine itself on every
 * {@code checkpointEvery}-th version the leader makes (and prune the delta log they cover).
 *
 * <p>Each round (owner thread {@code meta-version-1}): 1. if no compaction is running, pick one
 * over the current version with {@code safe = min(committed epoch, oldest reader pin)} and send it
 * to a compute node (round robin) with {@link ComputeClient#compact}; its result is applied when it
 * comes back ({@code applyCompaction} refuses a result whose inputs changed); a task that takes
 * longer than {@code compactionTimeoutMs} is forgotten (its outputs become garbage). 2. every
 * {@code vacuumIntervalMs}: list the SSTs no version references; delete those unreferenced for at
 * least {@code vacuumGraceMs} (a node's synced SSTs are unreferenced until their epoch commits, and
 * a follower may still read an old version's files: the grace covers both).
 *
 * <p>Thread confinement: every field below {@link #owner} is touched only on the owner thread.
 */
public final class VersionMaintenance implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VersionMaintenance.class);

  /**
   * Timing of the maintenance rounds.
   *
   * @param roundMs how often compaction is considered
   * @param compactionTimeoutMs how long a node may take for one task
   * @param vacuumIntervalMs how often unreferenced SSTs are listed
   * @param vacuumGraceMs how long an SST must stay unreferenced before it is deleted
   */
  public record Config(
      long roundMs, long compactionTimeoutMs, long vacuumIntervalMs, long vacuumGraceMs) {
    public static final Config DEFAULT = new Config(1_000, 300_000, 30_000, 600_000);

    public Config {
      Checks.checkArgument(roundMs > 0, "maintenance round must be > 0 ms, got %s", roundMs);
      Checks.checkArgument(vacuumGraceMs >= 0, "vacuum grace must be >= 0 ms");
    }
  }

  /** What one round did (for tests and logs). */
  public record Stats(
      long compactionsApplied, long compactionsFailed, long sstsDeleted, int awaitingGrace) {
    Stats withAwaiting(int n) {
      return new Stats(compactionsApplied, compactionsFailed, sstsDeleted, n);
    }
  }

  private final VersionService versions;
  private final ComputeClient compute;
  private final Supplier<List<String>> nodes;
  private final LongSupplier committedEpoch;
  private final ReaderPins pins;
  private final Config config;
  private final Clock clock;
  private final ScheduledExecutorService owner = Threads.scheduler("meta-version");

  private long nextTaskId = 1;
  private int nextNode;
  private Long runningTask;
  private long runningSinceMs;
  private long lastVacuumMs = Long.MIN_VALUE / 2;
  private final Map<Long, Long> unreferencedSince = new HashMap<>();
  private volatile Stats stats = new Stats(0, 0, 0, 0);

  public VersionMaintenance(
      VersionService versions,
      ComputeClient compute,
      Supplier<List<String>> nodes,
      LongSupplier committedEpoch,
      ReaderPins pins,
      Config config,
      Clock clock) {
    this.versions = versions;
    this.compute = compute;
    this.nodes = nodes;
    this.committedEpoch = committedEpoch;
    this.pins = pins;
    this.config = config;
    this.clock = clock;
  }

  /** A leader task that runs maintenance over {@code versions} in every term. */
  public static LeaderTask task(
      VersionService versions, ReaderPins pins, Config config, Clock clock) {
    return (ComputeClient compute, GlobalBarrierManager<?> m) -> {
      VersionMaintenance vm =
          new VersionMaintenance(
              versions, compute, m::computeNodes, m::committedEpoch, pins, config, clock);
      vm.start();
      return vm;
    };
  }

  public void start() {
    owner.scheduleWithFixedDelay(
        this::roundSafely, config.roundMs(), config.roundMs(), TimeUnit.MILLISECONDS);
  }

  public Stats stats() {
    return stats;
  }

  private void roundSafely() {
    try {
      round();
    } catch (RuntimeException e) {
      LOG.warn("version maintenance round failed; retrying next round", e);
    }
  }

  /** One round; package-visible so tests can drive it on their own thread. */
  void round() {
    long now = clock.currentTimeMillis();
    if (runningTask != null && now - runningSinceMs > config.compactionTimeoutMs()) {
      LOG.warn(
          "compaction task {} timed out after {} ms; forgetting it",
          runningTask,
          now - runningSinceMs);
      runningTask = null;
    }
    if (runningTask == null) {
      scheduleCompaction(now);
    }
    if (now - lastVacuumMs >= config.vacuumIntervalMs()) {
      lastVacuumMs = now;
      vacuum(now);
    }
  }

  private void scheduleCompaction(long now) {
    List<String> live = nodes.get();
    if (live.isEmpty()) {
      return;
    }
    long committed = committedEpoch.getAsLong();
    long safe = pins.minPinnedEpoch(committed);
    Optional<CompactionJob> picked = versions.pickCompaction(Math.min(safe, committed), false);
    if (picked.isEmpty()) {
      return;
    }
    CompactionJob job = picked.get();
    long taskId = nextTaskId++;
    String node = live.get(Math.floorMod(nextNode++, live.size()));
    runningTask = taskId;
    runningSinceMs = now;
    LOG.debug(
        "compaction task {} ({} SSTs, {} bytes) on {}",
        taskId,
        job.inputCount(),
        job.inputBytes(),
        node);
    compute
        .compact(node, job)
        .whenComplete(
            (res, failure) -> owner.execute(() -> onCompacted(taskId, node, res, failure)));
  }

  private void onCompacted(long taskId, String node, CompactionOutcome res, Throwable failure) {
    if (runningTask == null || runningTask != taskId) {
      return; // timed out and forgotten
    }
    runningTask = null;
    Stats s = stats;
    if (failure != null) {
      LOG.warn("compaction task {} on {} failed: {}", taskId, node, failure.toString());
      stats =
          new Stats(
              s.compactionsApplied(),
              s.compactionsFailed() + 1,
              s.sstsDeleted(),
              s.awaitingGrace());
      return;
    }
    try {
      boolean applied = versions.applyCompaction(res);
      stats =
          applied
              ? new Stats(
                  s.compactionsApplied() + 1,
                  s.compactionsFailed(),
                  s.sstsDeleted(),
                  s.awaitingGrace())
              : new Stats(
                  s.compactionsApplied(),
                  s.compactionsFailed() + 1,
                  s.sstsDeleted(),
                  s.awaitingGrace());
      LOG.debug("compaction task {} {}", taskId, applied ? "applied" : "stale, dropped");
    } catch (RuntimeException e) {
      LOG.warn("applying compaction task {} failed", taskId, e);
      stats =
          new Stats(
              s.compactionsApplied(),
              s.compactionsFailed() + 1,
              s.sstsDeleted(),
              s.awaitingGrace());
    }
  }

  private void vacuum(long now) {
    Set<Long> unreferenced = versions.unreferencedSsts();
    unreferencedSince.keySet().retainAll(unreferenced);
    List<Long> due =
        unreferenced.stream()
            .filter(
                id ->
                    now - unreferencedSince.computeIfAbsent(id, k -> now) >= config.vacuumGraceMs())
            .toList();
    if (due.isEmpty()) {
      stats = stats.withAwaiting(unreferencedSince.size());
      return;
    }
    int deleted = versions.deleteSsts(due);
    due.forEach(unreferencedSince::remove);
    Stats s = stats;
    stats =
        new Stats(
            s.compactionsApplied(),
            s.compactionsFailed(),
            s.sstsDeleted() + deleted,
            unreferencedSince.size());
    LOG.info(
        "vacuum deleted {} SSTs unreferenced for {} ms or more", deleted, config.vacuumGraceMs());
  }

  @Override
  public void close() {
    owner.shutdownNow();
    try {
      owner.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

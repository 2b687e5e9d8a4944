package dev.tideway.compute.bench;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.actor.ActorReporter;
import dev.tideway.compute.actor.BarrierInbox;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.SyncResult;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The benchmark's stand-in for meta and the node's barrier manager: injects a checkpoint barrier
 * into every source actor's inbox each interval, and once every actor collected an epoch's barrier
 * syncs and commits the state store for the epoch it closed. Syncs run on the store's sync thread
 * while the driver goes on injecting and collecting, as a node's barrier manager syncs while its
 * actors run on; their commits follow in epoch order. A tick missed while the driver was busy is
 * skipped, not made up for with barriers back to back. When the sources are exhausted it injects a
 * final barrier whose {@code Stop} names every actor and returns once that one is committed.
 *
 * <p>Thread model: {@link #run} owns all driver state on the calling thread; actor threads only
 * enqueue reports ({@link ActorReporter} methods). Barrier latency is measured from injection to
 * the end of the epoch's commit.
 */
final class BarrierDriver implements ActorReporter {
  /** What an actor thread reported. */
  private sealed interface Report {}

  private record Collected(Barrier barrier) implements Report {}

  private record Failed(int actorId, Throwable cause) implements Report {}

  private record Exited(int actorId) implements Report {}

  /** An epoch whose barrier every actor collected, its sync under way. */
  private record Syncing(long epoch, Barrier barrier, CompletableFuture<SyncResult> sync) {}

  /** Outcome of a run: wall time from the first injection to the stop epoch's commit. */
  record Result(
      long elapsedNanos,
      List<Long> barrierLatencyNanos,
      List<Long> collectLatencyNanos,
      long lastCommittedEpoch) {}

  /** Longest the loop waits for a report before checking the sources and the schedule again. */
  private static final long POLL_NANOS = 2_000_000L;

  private final List<BarrierInbox> inboxes;
  private final Set<Integer> actors;
  private final Storage store;
  private final Clock clock;
  private final long intervalNanos;
  private final LinkedBlockingQueue<Report> reports = new LinkedBlockingQueue<>();

  // run()-thread state
  private final Map<Long, Long> injectedAt = new HashMap<>();
  private final Map<Long, Integer> collectedBy = new HashMap<>();
  private final Map<Long, Barrier> barriers = new HashMap<>();
  private final List<Long> latencies = new ArrayList<>();

  /** Syncs started and not yet committed, oldest first. */
  private final ArrayDeque<Syncing> syncing = new ArrayDeque<>();

  /**
   * Per committed checkpoint: injection to the last actor's collect (the rest is sync + commit).
   */
  private final List<Long> collectLatencies = new ArrayList<>();

  private long lastEpoch;
  private long stopEpoch = -1;
  private boolean stopCommitted;
  private long lastCommitted;

  /**
   * @param inboxes the source actors' inboxes (barriers are injected there)
   * @param actors every actor of the job (each must collect a barrier before its epoch commits)
   */
  BarrierDriver(
      List<BarrierInbox> inboxes,
      Set<Integer> actors,
      Storage store,
      Clock clock,
      long intervalMs) {
    Checks.checkArgument(intervalMs > 0, "barrier interval must be > 0 ms, got %s", intervalMs);
    this.inboxes = List.copyOf(inboxes);
    this.actors = Set.copyOf(actors);
    this.store = store;
    this.clock = clock;
    this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
  }

  @Override
  public void barrierCollected(int actorId, Barrier barrier) {
    reports.add(new Collected(barrier));
  }

  @Override
  public void actorExited(int actorId, boolean stopped) {
    reports.add(new Exited(actorId));
  }

  @Override
  public void actorFailed(int actorId, Throwable cause) {
    reports.add(new Failed(actorId, cause));
  }

  /** Drives barriers until {@code sourcesDone} and the stop epoch is committed. */
  Result run(BooleanSupplier sourcesDone) throws Exception {
    long start = clock.nanoTime();
    inject(BarrierKind.INITIAL, null);
    long next = start + intervalNanos;
    while (!stopCommitted) {
      // after the stop barrier the schedule no longer advances: wait on reports only
      long untilNext = stopEpoch < 0 ? next - clock.nanoTime() : POLL_NANOS;
      Report r = reports.poll(Math.max(0, Math.min(POLL_NANOS, untilNext)), TimeUnit.NANOSECONDS);
      if (r != null) {
        onReport(r);
      }
      commitSynced();
      long now = clock.nanoTime();
      if (stopEpoch < 0 && sourcesDone.getAsBoolean()) {
        inject(BarrierKind.CHECKPOINT, new Mutation.Stop(actors));
        stopEpoch = lastEpoch;
      } else if (stopEpoch < 0 && now >= next) {
        inject(BarrierKind.CHECKPOINT, null);
        next = Math.max(next + intervalNanos, now + intervalNanos / 2);
      }
    }
    return new Result(
        clock.nanoTime() - start,
        List.copyOf(latencies),
        List.copyOf(collectLatencies),
        lastCommitted);
  }

  private void inject(BarrierKind kind, Mutation mutation) {
    long epoch = Math.max(Epochs.fromUnixMillis(clock.currentTimeMillis()), lastEpoch + (1L << 16));
    Barrier b = new Barrier(new EpochPair(epoch, lastEpoch), kind, mutation);
    lastEpoch = epoch;
    injectedAt.put(epoch, clock.nanoTime());
    barriers.put(epoch, b);
    for (BarrierInbox in : inboxes) {
      in.push(b);
    }
  }

  private void onReport(Report r) throws Exception {
    if (r instanceof Failed f) {
      throw new IllegalStateException("actor " + f.actorId() + " failed", f.cause());
    }
    if (!(r instanceof Collected c)) {
      return; // an exit follows the stop barrier's collection; nothing to do
    }
    long epoch = c.barrier().curr();
    int n = collectedBy.merge(epoch, 1, Integer::sum);
    if (n < actors.size()) {
      return;
    }
    collectedBy.remove(epoch);
    Barrier b = barriers.remove(epoch);
    if (b.kind() == BarrierKind.INITIAL) {
      injectedAt.remove(epoch);
      return;
    }
    collectLatencies.add(clock.nanoTime() - injectedAt.get(epoch));
    syncing.add(new Syncing(epoch, b, store.sync(b.prev())));
  }

  /** Commits every synced epoch at the head of {@link #syncing}, in epoch order. */
  private void commitSynced() throws Exception {
    while (!syncing.isEmpty() && syncing.peek().sync().isDone()) {
      Syncing s = syncing.poll();
      SyncResult r = s.sync().get();
      Barrier b = s.barrier();
      store.commitEpoch(b.prev(), r.ssts(), r.statsDelta());
      lastCommitted = b.prev();
      latencies.add(clock.nanoTime() - injectedAt.remove(s.epoch()));
      if (s.epoch() == stopEpoch) {
        stopCommitted = true;
      }
    }
  }
}

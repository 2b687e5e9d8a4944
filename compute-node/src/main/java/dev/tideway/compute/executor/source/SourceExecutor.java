package dev.tideway.compute.executor.source;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import dev.tideway.common.time.RateLimiter;
import dev.tideway.common.types.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the splits a source actor owns, between the barriers injected into it.
 *
 * <p>Overview: the first pull blocks for the first barrier, then restores each owned split's offset
 * from the {@link SplitStateStore} (0 for a new split) and emits the barrier. Later pulls emit a
 * waiting barrier first; otherwise they read up to {@code chunkSize} rows (within the rate limit)
 * from the next non-exhausted split, round robin. A barrier first persists every split's offset
 * under the epoch it closes ({@code prev}), so the persisted offsets always describe exactly the
 * rows emitted before it. When every split is exhausted, or while paused, the source only forwards
 * barriers.
 *
 * <p>Mutations: an {@code Add} naming this actor on the first barrier picks its splits from those
 * given; {@code Pause}/{@code Resume} stop and restart reading; {@code Throttle} for this actor
 * changes the rate; a {@code Stop} naming it ends the stream after that barrier.
 *
 * <p>States: waiting for the first barrier → reading → stopped. Confined to the actor thread.
 */
public final class SourceExecutor implements Executor, AutoCloseable {
  /**
   * @param chunkSize most rows per chunk
   * @param rowsPerSecond the actor's rate limit, or {@link RateLimiter#UNLIMITED}
   */
  public record Options(int chunkSize, long rowsPerSecond) {
    public Options {
      Checks.checkArgument(chunkSize > 0, "source chunk size must be > 0, got %s", chunkSize);
    }
  }

  /** Where the source is in its life. */
  private enum Phase {
    WAITING_FOR_FIRST_BARRIER,
    READING,
    STOPPED
  }

  /** How long one wait for a rate-limit token may block before checking for barriers again. */
  private static final long MAX_WAIT_NANOS = 10_000_000L;

  /**
   * Finds the splits an actor should own while it runs (a Kafka topic grows partitions). Asked on
   * barriers, at most once per {@link #DISCOVERY_INTERVAL_NANOS}; confined to the actor's thread.
   */
  public interface SplitDiscovery extends AutoCloseable {
    /**
     * Every split the actor should own now (those it already reads included), or {@code null} when
     * the question could not be answered this time (the source goes on as it is).
     */
    List<SplitReader> discover();

    /** Releases what the discovery and its readers hold (a consumer); on the actor's thread. */
    @Override
    default void close() {}
  }

  /** The least time between two split discoveries. */
  static final long DISCOVERY_INTERVAL_NANOS = 5_000_000_000L;

  private final ExecutorInfo info;
  private final Schema schema;
  private final SplitDiscovery discovery;
  private long lastDiscoveryNanos;
  private final Map<String, SplitReader> available = new LinkedHashMap<>();
  private final BarrierInbox inbox;
  private final SplitStateStore state;
  private final Clock clock;
  private final int chunkSize;
  private final RateLimiter limiter;

  /** The owned splits in read order, with their next offsets (parallel lists). */
  private final List<SplitReader> owned = new ArrayList<>();

  private long[] offsets = new long[0];
  private int nextSplit;
  private Phase phase = Phase.WAITING_FOR_FIRST_BARRIER;
  private boolean paused;

  /** No actor reads this one yet ({@link #idleUntilRead}). */
  private boolean idle;

  /** Splits that start where the startup position says (nothing persisted), while idle. */
  private final java.util.Set<String> fromStartup = new java.util.HashSet<>();

  public SourceExecutor(
      ExecutorInfo info,
      List<SplitReader> splits,
      BarrierInbox inbox,
      SplitStateStore state,
      Clock clock,
      Options options) {
    this(info, schemaOf(info, splits), splits, null, inbox, state, clock, options);
  }

  /**
   * A source whose splits may grow while it runs: it starts with {@code splits} (possibly none) and
   * adds those {@code discovery} finds later.
   */
  public SourceExecutor(
      ExecutorInfo info,
      Schema schema,
      List<SplitReader> splits,
      SplitDiscovery discovery,
      BarrierInbox inbox,
      SplitStateStore state,
      Clock clock,
      Options options) {
    this.info = info;
    this.schema = schema;
    this.discovery = discovery;
    for (SplitReader r : splits) {
      Checks.checkArgument(
          r.schema().types().equals(schema.types()),
          "%s: split %s has types %s, expected %s",
          info,
          r.splitId(),
          r.schema().types(),
          schema.types());
      Checks.checkArgument(
          available.put(r.splitId(), r) == null, "%s: split %s given twice", info, r.splitId());
    }
    this.inbox = inbox;
    this.state = state;
    this.clock = clock;
    this.chunkSize = options.chunkSize();
    this.limiter =
        new RateLimiter(
            options.rowsPerSecond(), RateLimiter.Burst.TENTH_OF_A_SECOND, clock.nanoTime());
  }

  /**
   * Reads nothing until an {@code Add} barrier adds an actor that reads this one: a shared source
   * whose job no view reads yet would otherwise read its topic only to drop it (and the first
   * view's backfill would read it all again). Its offsets stay where they start, so that view gets
   * every row from the live stream; a split with no persisted offset takes its startup position
   * again when reading starts ({@code latest} means then, not when the source was created).
   */
  public SourceExecutor idleUntilRead() {
    Checks.checkState(
        phase == Phase.WAITING_FOR_FIRST_BARRIER, "%s: idleUntilRead after the start", info);
    idle = true;
    return this;
  }

  /** Where {@code r} starts: its persisted offset, else its startup position. */
  private long startOf(SplitReader r) {
    java.util.OptionalLong saved = state.restore(r.splitId());
    if (saved.isPresent()) {
      return saved.getAsLong();
    }
    if (idle) {
      fromStartup.add(r.splitId());
    }
    return r.startOffset();
  }

  private static Schema schemaOf(ExecutorInfo info, List<SplitReader> splits) {
    Checks.checkArgument(!splits.isEmpty(), "%s: a source needs at least one split", info);
    return splits.get(0).schema();
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  /** The next offset of each owned split (for tests and metrics). */
  public Map<String, Long> offsets() {
    Map<String, Long> out = new LinkedHashMap<>();
    for (int i = 0; i < owned.size(); i++) {
      out.put(owned.get(i).splitId(), offsets[i]);
    }
    return out;
  }

  @Override
  public Message next() {
    try {
      return switch (phase) {
        case STOPPED -> null;
        case WAITING_FOR_FIRST_BARRIER -> {
          Barrier b = inbox.take();
          yield b == null ? stop() : start(b);
        }
        case READING -> read();
      };
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(info + ": interrupted while waiting for a barrier", e);
    }
  }

  private Message read() throws InterruptedException {
    while (true) {
      Barrier b = inbox.poll();
      if (b != null) {
        return onBarrier(b);
      }
      if (paused || idle || allExhausted()) {
        b = inbox.take();
        return b == null ? stop() : onBarrier(b);
      }
      long permits = limiter.available(clock.nanoTime());
      if (permits <= 0) {
        b = inbox.poll(Math.min(MAX_WAIT_NANOS, limiter.nanosUntilAvailable()));
        if (b != null) {
          return onBarrier(b);
        }
        continue;
      }
      Message m = readChunk((int) Math.min(chunkSize, permits));
      if (m != null) {
        return m;
      }
    }
  }

  /** Reads from the next non-exhausted split; null when the read produced no row. */
  private Message readChunk(int maxRows) {
    for (int tried = 0; tried < owned.size(); tried++) {
      int s = nextSplit;
      nextSplit = (nextSplit + 1) % owned.size();
      SplitReader r = owned.get(s);
      if (r.isExhausted(offsets[s])) {
        continue;
      }
      SplitReader.Batch batch = r.read(offsets[s], maxRows);
      Checks.checkState(
          batch.nextOffset() >= offsets[s],
          "%s: split %s moved back from offset %s to %s",
          info,
          r.splitId(),
          offsets[s],
          batch.nextOffset());
      offsets[s] = batch.nextOffset();
      int rows = batch.chunk().cardinality();
      limiter.consume(rows);
      return rows == 0 ? null : Message.of(batch.chunk());
    }
    return null;
  }

  private boolean allExhausted() {
    for (int i = 0; i < owned.size(); i++) {
      if (!owned.get(i).isExhausted(offsets[i])) {
        return false;
      }
    }
    return true;
  }

  private Message start(Barrier first) {
    List<String> ids = new ArrayList<>(available.keySet());
    if (discovery == null
        && first.mutation() instanceof Mutation.Add add
        && add.splits().containsKey(info.actorId())) {
      ids = add.splits().get(info.actorId());
    }
    offsets = new long[ids.size()];
    state.init(first.curr());
    for (String id : ids) {
      SplitReader r = available.get(id);
      Checks.checkArgument(r != null, "%s: assigned split %s is not known here", info, id);
      offsets[owned.size()] = startOf(r);
      owned.add(r);
    }
    lastDiscoveryNanos = clock.nanoTime();
    phase = Phase.READING;
    // the first barrier only opens our first epoch, whatever its kind: an actor added to a running
    // graph starts on the checkpoint barrier that carries its Add, and sealing there would close
    // an epoch this actor never wrote (its state table was just initialised at first.curr())
    return applyMutation(first);
  }

  private Message onBarrier(Barrier b) {
    if (b.kind() != BarrierKind.INITIAL) { // an initial barrier closes no epoch of ours
      for (int i = 0; !idle && i < owned.size(); i++) { // idle: nothing read, nothing to keep
        state.persist(b.prev(), owned.get(i).splitId(), offsets[i]);
      }
      state.seal(b.curr(), b.prev());
    }
    discoverSplits();
    return applyMutation(b);
  }

  private Message applyMutation(Barrier b) {
    Mutation m = b.mutation();
    if (m instanceof Mutation.Pause) {
      paused = true;
    } else if (m instanceof Mutation.Resume) {
      paused = false;
    } else if (m instanceof Mutation.Throttle t
        && t.rowsPerSecondByActor().containsKey(info.actorId())) {
      limiter.setRate(t.rowsPerSecondByActor().get(info.actorId()), clock.nanoTime());
    } else if (m instanceof Mutation.Add add && add.paused()) {
      paused = true;
    }
    if (idle && m instanceof Mutation.Add add) {
      for (List<Integer> ups : add.upstreamActors().values()) {
        idle &= !ups.contains(info.actorId()); // a new actor reads this one: start reading
      }
      if (!idle) {
        // the startup position means "when reading starts" ('latest' is now, not when created)
        for (int i = 0; i < owned.size(); i++) {
          if (fromStartup.contains(owned.get(i).splitId())) {
            offsets[i] = owned.get(i).startOffset();
          }
        }
        fromStartup.clear();
      }
    }
    if (b.stops(info.actorId())) {
      phase = Phase.STOPPED;
    }
    return b;
  }

  /** Adds the splits discovery finds that the actor does not read yet (on a barrier). */
  private void discoverSplits() {
    long now = clock.nanoTime();
    if (discovery == null || now - lastDiscoveryNanos < DISCOVERY_INTERVAL_NANOS) {
      return;
    }
    lastDiscoveryNanos = now;
    List<SplitReader> found = discovery.discover();
    if (found == null) {
      return;
    }
    for (SplitReader r : found) {
      if (owned.stream().anyMatch(o -> o.splitId().equals(r.splitId()))) {
        continue;
      }
      Checks.checkArgument(
          r.schema().types().equals(schema.types()),
          "%s: split %s has types %s, expected %s",
          info,
          r.splitId(),
          r.schema().types(),
          schema.types());
      offsets = java.util.Arrays.copyOf(offsets, owned.size() + 1);
      offsets[owned.size()] = startOf(r);
      owned.add(r);
      available.put(r.splitId(), r);
    }
  }

  @Override
  public void close() {
    if (discovery != null) {
      try {
        discovery.close();
      } catch (Exception e) {
        throw new IllegalStateException(info + ": closing the source's connector failed", e);
      }
    }
  }

  private Message stop() {
    phase = Phase.STOPPED;
    return null;
  }
}

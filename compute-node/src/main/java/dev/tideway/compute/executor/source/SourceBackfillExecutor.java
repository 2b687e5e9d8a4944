package dev.tideway.compute.executor.source;

import dev.tideway.backfill.ratelimit.BackfillControl;
import dev.tideway.backfill.upstream.Upstream;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.progress.CreateMviewProgressReporter;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.Schema;
import dev.tideway.storage.table.StateTable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Backfills a view from a shared Kafka source: reads the history of the partitions its shard owns
 * itself, from the startup position, while the shared source's live rows for them arrive from its
 * paired source actor, and hands each partition over to the live rows at an offset where no row is
 * missed or repeated. Every row names its partition and offset in its row id.
 *
 * <p>Why a hand-off exists: the shared consumer reads every offset in order, and when the view was
 * added it stood at some unknown offset {@code U <= end} (the partition's end then: it cannot pass
 * the log's end). So the live rows are exactly the offsets from {@code U} on, and the first live
 * row {@code f} is the first record at or after {@code U}. Per partition ({@code next} is the
 * offset after the last one the backfill read):
 *
 * <ul>
 *   <li><b>BACKFILLING</b>: no live row yet. The backfill reads. Reaching {@code next >= end}, it
 *       has every offset below {@code U}: SWITCHED at {@code next}.
 *   <li>The first live row {@code f} arrives: the live rows cover {@code [f, ∞)}. If the backfill
 *       already read past it ({@code f < next}), SWITCHED at {@code next} (the live rows below it
 *       are duplicates); else CAPPED at {@code f}, and {@code f} passes.
 *   <li><b>CAPPED</b> at {@code cap}: live rows pass; the backfill reads on but emits only offsets
 *       below {@code cap}, and is FINISHED when {@code next >= cap}. The work is bounded: a
 *       backfill slower than the topic's traffic never chases it (the live rows of a partition may
 *       then pass before its older history, which a view over an append-only source does not mind).
 *   <li><b>SWITCHED</b> at {@code t}: live rows below {@code t} are dropped, the others pass; the
 *       first that passes makes it FINISHED.
 *   <li><b>FINISHED</b>: live rows pass. Once every partition is, chunks pass untouched.
 * </ul>
 *
 * A recovery restores every partition's state from the checkpoint the shared source's offsets were
 * taken in, so the live rows resume right after the last ones the view holds and the argument holds
 * again. Partitions this backfill does not know (created after it began) are the shared consumer's
 * from their beginning: their rows pass.
 *
 * <p>Progress: offsets consumed ({@code next - start}) of the offsets to read, {@code end - start}
 * per partition until its hand-off point is known and then exactly up to it, reported on every
 * barrier; the backfill reports finished once no partition needs reading (so a view over an idle
 * topic is created at once). Between barriers, a ready live message and a backfill read alternate;
 * a paused cluster stops the reads, and {@code backfill_rate_limit} (a {@code Throttle}) limits
 * them ({@link BackfillControl}, as a table backfill's). Confined to the actor thread.
 */
public final class SourceBackfillExecutor implements Executor, AutoCloseable {
  /** Records read per backfill batch. */
  static final int BATCH_ROWS = 1024;

  private final ExecutorInfo info;
  private final Schema schema;
  private final Upstream upstream;
  private final KafkaSplits splits;
  private final List<SplitReader> readers;
  private final Map<Integer, Long> starts;
  private final StateTable state;
  private final CreateMviewProgressReporter reporter;
  private final BackfillControl control;
  private final int rowIdColumn;
  private final ArrayDeque<Message> out = new ArrayDeque<>();

  /** Partitions this shard owns, by partition number. */
  private final Map<Integer, Part> parts = new HashMap<>();

  /** Partitions still reading (BACKFILLING or CAPPED), in read order (round robin). */
  private final List<Part> open = new ArrayList<>();

  private int turn;
  private boolean started;
  private boolean ended;
  private boolean backfillTurn;

  /** Every partition FINISHED: chunks pass untouched. */
  private boolean caughtUp;

  /**
   * @param readers the partitions the actor's shard owns (listed when it was built)
   * @param starts each owned partition's startup position (asked once, when it was built)
   */
  public SourceBackfillExecutor(
      ExecutorInfo info,
      Schema schema,
      Executor upstream,
      KafkaSplits splits,
      List<SplitReader> readers,
      Map<Integer, Long> starts,
      StateTable state,
      CreateMviewProgressReporter reporter,
      Clock clock,
      long rowsPerSecond) {
    this.info = info;
    this.schema = schema;
    this.upstream = new Upstream(upstream);
    this.splits = splits;
    this.readers = List.copyOf(readers);
    this.starts = Map.copyOf(starts);
    this.state = state;
    this.reporter = reporter;
    this.control = new BackfillControl(info.actorId(), clock, rowsPerSecond);
    this.rowIdColumn = schema.size() - 1;
    Checks.checkArgument(
        schema.size() > 0 && schema.field(rowIdColumn).name().equals(KafkaSplits.ROW_ID),
        "%s: a source backfill needs the source's row id as its last column, got %s",
        info,
        schema);
  }

  /** Where a partition's hand-off stands (persisted by code). */
  enum Phase {
    BACKFILLING,
    CAPPED,
    SWITCHED,
    FINISHED;

    static Phase of(long code) {
      return values()[(int) code];
    }
  }

  /** One partition's hand-off state; persisted as one state table row. */
  private static final class Part {
    final KafkaSplits.PartitionReader reader;
    long start;
    long next;
    long end;
    Phase phase = Phase.BACKFILLING;

    /** CAPPED: the first live row's offset; SWITCHED: the offset live rows pass from. */
    long mark = -1;

    /** No offset without a row was read (no transaction markers, compaction gaps, bad records). */
    boolean exact = true;

    boolean dirty = true;

    Part(KafkaSplits.PartitionReader reader) {
      this.reader = reader;
    }

    boolean reading() {
      return phase == Phase.BACKFILLING || phase == Phase.CAPPED;
    }

    /** Offsets this partition's backfill reads in all, as far as known now. */
    long toRead() {
      return switch (phase) {
        case BACKFILLING -> Math.max(end, next) - start;
        case CAPPED -> Math.max(mark, next) - start;
        default -> next - start;
      };
    }

    Row row() {
      return Row.of(reader.splitId(), start, next, end, (long) phase.ordinal(), mark, exact);
    }
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    while (out.isEmpty()) {
      if (ended) {
        return null;
      }
      step();
    }
    return out.poll();
  }

  private void step() {
    if (!started || open.isEmpty() || control.available() <= 0) {
      handle(upstream.next());
      return;
    }
    if (backfillTurn) {
      backfillTurn = false;
      readBatch();
      return;
    }
    Message m = upstream.poll();
    if (m != null) {
      handle(m);
      backfillTurn = true;
    } else if (upstream.ended()) {
      ended = true;
    } else {
      readBatch();
    }
  }

  private void readBatch() {
    Part p = open.get(turn++ % open.size());
    long from = p.next;
    SplitReader.Batch b =
        p.reader.read(from, (int) Math.min(BATCH_ROWS, Math.max(1, control.available())));
    StreamChunk c = b.chunk();
    control.consume(c.size());
    if (c.size() > 0) {
      StreamChunk shown = p.phase == Phase.CAPPED ? below(c, p.mark) : c;
      if (shown != null) {
        out.add(Message.of(shown));
      }
    }
    long next = b.nextOffset();
    if (c.size() == 0) {
      // only transaction markers or nothing left: the consumer's position says how far it read
      next = Math.max(next, splits.drainedPosition(p.reader.partition()));
    }
    if (next > from) {
      p.exact &= next - from == c.size();
      p.next = next;
      p.dirty = true;
      if (p.phase == Phase.BACKFILLING && p.next >= p.end) {
        moveTo(p, Phase.SWITCHED, p.next);
      } else if (p.phase == Phase.CAPPED && p.next >= p.mark) {
        moveTo(p, Phase.FINISHED, p.mark);
      }
    }
  }

  /** The rows of {@code c} below offset {@code cap}; null when none is. */
  private StreamChunk below(StreamChunk c, long cap) {
    LongVector ids = (LongVector) c.column(rowIdColumn);
    boolean[] visible = new boolean[c.size()];
    int shown = 0;
    for (int i = 0; i < c.size(); i++) {
      visible[i] = c.isVisible(i) && KafkaSplits.offsetOf(ids.getLong(i)) < cap;
      shown += visible[i] ? 1 : 0;
    }
    return shown == 0 ? null : shown == c.size() ? c : c.withVisibility(visible);
  }

  private void moveTo(Part p, Phase phase, long mark) {
    p.phase = phase;
    p.mark = mark;
    p.dirty = true;
    if (!p.reading() && open.remove(p)) {
      splits.release(p.reader.partition()); // its prefetched records would hold up the others
    }
  }

  private void handle(Message m) {
    if (m == null) {
      ended = true;
    } else if (m instanceof Message.Chunk c) {
      Checks.checkState(started, "%s: upstream chunk before the first barrier", info);
      onChunk(c.chunk());
    } else if (m instanceof Barrier b) {
      onBarrier(b);
    } else if (caughtUp) {
      out.add(m); // watermarks only once the backfill no longer emits older rows
    }
  }

  private void onChunk(StreamChunk c) {
    if (caughtUp) {
      out.add(Message.of(c));
      return;
    }
    LongVector ids = (LongVector) c.column(rowIdColumn);
    boolean[] visible = new boolean[c.size()];
    int shown = 0;
    for (int i = 0; i < c.size(); i++) {
      if (!c.isVisible(i)) {
        continue;
      }
      long id = ids.getLong(i);
      Part p = parts.get(KafkaSplits.partitionOf(id));
      long offset = KafkaSplits.offsetOf(id);
      boolean show;
      if (p == null || p.phase == Phase.FINISHED || p.phase == Phase.CAPPED) {
        show = true;
      } else if (p.phase == Phase.BACKFILLING) {
        // the first live row: the live rows cover it and every later offset
        if (offset < p.next) {
          moveTo(p, Phase.SWITCHED, p.next);
          show = false;
        } else {
          moveTo(p, offset == p.next ? Phase.FINISHED : Phase.CAPPED, offset);
          show = true;
        }
      } else {
        show = offset >= p.mark;
        if (show) {
          moveTo(p, Phase.FINISHED, p.mark);
        }
      }
      visible[i] = show;
      shown += show ? 1 : 0;
    }
    if (shown == c.size()) {
      out.add(Message.of(c));
    } else if (shown > 0) {
      out.add(Message.of(c.withVisibility(visible)));
    }
  }

  /**
   * The state row saying the backfill began: after a recovery, an owned partition without a row of
   * its own appeared after the backfill began, and the shared source reads it from its beginning.
   */
  static final String STARTED = "";

  private void start(Barrier b) {
    state.init(b.curr());
    boolean resumed = state.get(Row.of(STARTED)) != null;
    if (!resumed) {
      state.insert(Row.of(STARTED, 0L, 0L, 0L, (long) Phase.FINISHED.ordinal(), -1L, true));
    }
    List<Part> fresh = new ArrayList<>();
    for (SplitReader r : readers) {
      Part p = new Part((KafkaSplits.PartitionReader) r);
      Row saved = state.get(Row.of(r.splitId()));
      if (saved == null && resumed) {
        p.start = 0;
        p.next = 0;
        p.phase = Phase.FINISHED; // the live rows carry it, from its beginning
      } else if (saved == null) {
        p.start = starts.getOrDefault(p.reader.partition(), r.startOffset());
        p.next = p.start;
        fresh.add(p);
      } else {
        p.start = (Long) saved.get(1);
        p.next = (Long) saved.get(2);
        p.end = (Long) saved.get(3);
        p.phase = Phase.of((Long) saved.get(4));
        p.mark = (Long) saved.get(5);
        p.exact = (Boolean) saved.get(6);
        p.dirty = false;
      }
      parts.put(p.reader.partition(), p);
    }
    if (!fresh.isEmpty()) {
      Map<Integer, Long> ends =
          splits.endOffsets(fresh.stream().map(p -> p.reader.partition()).toList());
      for (Part p : fresh) {
        p.end = Math.max(p.start, ends.getOrDefault(p.reader.partition(), p.start));
      }
    }
    for (Part p : parts.values()) {
      if (p.reading()) {
        open.add(p);
      }
      if (p.phase == Phase.BACKFILLING && p.next >= p.end) {
        moveTo(p, Phase.SWITCHED, p.next); // nothing to read (startup 'latest', an empty topic)
      }
    }
    open.sort((x, y) -> Integer.compare(x.reader.partition(), y.reader.partition()));
    started = true;
    control.onBarrier(b);
    report(b);
  }

  private void onBarrier(Barrier b) {
    if (!started) {
      start(b);
      out.add(b);
      return;
    }
    boolean allCaughtUp = true;
    for (Part p : parts.values()) {
      if (p.dirty) {
        Row row = p.row();
        Row old = state.get(Row.of(p.reader.splitId()));
        if (old == null) {
          state.insert(row);
        } else if (!old.equals(row)) {
          state.update(old, row);
        }
        p.dirty = false;
      }
      allCaughtUp &= p.phase == Phase.FINISHED;
    }
    report(b);
    state.commit(b.curr(), b.prev());
    control.onBarrier(b);
    caughtUp = allCaughtUp;
    out.add(b);
  }

  private void report(Barrier b) {
    long consumed = 0;
    long total = 0;
    boolean exact = true;
    for (Part p : parts.values()) {
      consumed += p.next - p.start;
      total += Math.max(0, p.toRead());
      exact &= p.exact;
    }
    if (open.isEmpty()) {
      reporter.finishSourceBackfill(b.epoch(), consumed, total, exact);
    } else {
      reporter.updateForSourceBackfill(b.epoch(), consumed, total, exact);
    }
  }

  @Override
  public void close() {
    try {
      upstream.close();
    } finally {
      splits.close();
    }
  }
}

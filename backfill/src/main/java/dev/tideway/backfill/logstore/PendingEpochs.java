package dev.tideway.backfill.logstore;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The upstream epochs a snapshot backfill has not yet emitted, oldest first. Each is a range {@code
 * (fromExclusive, toInclusive]} of upstream epochs: either one epoch whose upstream chunks are
 * still held (it was not committed when last checked, so the change log cannot serve it yet), or a
 * range served from the change log ({@code chunks == null}). Chunks of an epoch are released as
 * soon as that epoch is committed ({@link #releaseCommitted}), so memory holds only the uncommitted
 * epochs and the upstream is never back-pressured.
 *
 * <p>Confined to the backfill's actor thread.
 */
public final class PendingEpochs {
  /** One pending range; {@code chunks} null = read it from the change log. */
  public static final class Range {
    final long fromExclusive;
    final long toInclusive;
    List<StreamChunk> chunks;

    Range(long fromExclusive, long toInclusive, List<StreamChunk> chunks) {
      Checks.checkArgument(
          toInclusive > fromExclusive,
          "pending range (%s, %s] is empty",
          fromExclusive,
          toInclusive);
      this.fromExclusive = fromExclusive;
      this.toInclusive = toInclusive;
      this.chunks = chunks;
    }

    public long toInclusive() {
      return toInclusive;
    }

    public boolean fromLog() {
      return chunks == null;
    }
  }

  private final ArrayDeque<Range> ranges = new ArrayDeque<>();

  /** Appends the upstream epoch {@code (prev, epoch]} with its chunks. */
  public void addEpoch(long prevEpoch, long epoch, List<StreamChunk> chunks) {
    add(new Range(prevEpoch, epoch, List.copyOf(chunks)));
  }

  /** Appends a range to read from the change log (after recovery). */
  public void addLogRange(long fromExclusive, long toInclusive) {
    add(new Range(fromExclusive, toInclusive, null));
  }

  private void add(Range r) {
    Range last = ranges.peekLast();
    Checks.checkState(
        last == null || last.toInclusive == r.fromExclusive,
        "pending epochs must be contiguous: (%s, %s] after one ending at %s",
        r.fromExclusive,
        r.toInclusive,
        last == null ? -1 : last.toInclusive);
    ranges.add(r);
  }

  /** Drops the held chunks of epochs at or before {@code committedEpoch}: the log serves them. */
  public void releaseCommitted(long committedEpoch) {
    for (Range r : ranges) {
      if (r.chunks != null && r.toInclusive <= committedEpoch) {
        r.chunks = null;
      }
    }
  }

  public boolean isEmpty() {
    return ranges.isEmpty();
  }

  /** Pending ranges (a recovered log range counts as one). */
  public int size() {
    return ranges.size();
  }

  public Range peek() {
    return ranges.peek();
  }

  public Range poll() {
    return ranges.poll();
  }

  /** The chunks of the first range, which must hold chunks. */
  public static List<StreamChunk> chunksOf(Range r) {
    Checks.checkState(r.chunks != null, "range ending at %s has no chunks", r.toInclusive);
    return r.chunks;
  }

  /** The first log epoch of a range (inclusive). */
  public static long firstEpoch(Range r) {
    return r.fromExclusive + 1;
  }
}

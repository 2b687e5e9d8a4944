package dev.tideway.compute.bench;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.executor.source.NexmarkConfig;
import dev.tideway.compute.executor.source.NexmarkSplitReader;
import dev.tideway.compute.executor.source.SplitReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The baseline: one thread reads every split of the same generator configuration (so the same
 * events, generated the same way into chunks) and does the query's work by hand over the primitive
 * columns, with no executors, barriers or state store. q0 and q1 fold the projected values into a
 * blackhole; q2 keeps the distinct (auction, price) pairs in a {@link HashSet}; q7 keeps per 10 s
 * window its highest price and every bid by price (what the engine's join keeps, since a window's
 * max may still rise), and joins them at the end; q5 counts bids per auction per hop window and
 * keeps, per window, the auctions at the highest count.
 *
 * <p>Confined to the calling thread.
 */
final class RawLoop {
  /** Wall time of the loop, rows it emitted, and a checksum that keeps the work alive. */
  record Result(long elapsedNanos, long outputRows, long checksum, long viewFingerprint) {}

  /**
   * An order-independent fingerprint of a view's rows, each given as its values in column order
   * (timestamps as microseconds): the sum of a mix of each row. The engine's view and the raw
   * loop's result match when their counts and fingerprints do.
   */
  static long fingerprint(long[] row) {
    long h = 0x9E3779B97F4A7C15L;
    for (long v : row) {
      h = (h ^ v) * 0xBF58476D1CE4E5B9L;
      h ^= h >>> 31;
    }
    return h;
  }

  private record Pair(long auction, long price) {}

  /** A q7 result row: the bid, its window and the window's highest price. */
  private record Q7Row(long auction, long bidder, long price, long time, long windowStart) {}

  /** One q7 window so far: its highest price. */
  private static final class Window {
    long max = Long.MIN_VALUE;
  }

  private static final long WINDOW_MICROS = 10_000_000L;
  private static final long SLIDE_MICROS = 2_000_000L;

  /** q5: bids per auction, per hop window start. */
  private final Map<Long, Map<Long, long[]>> counts = new HashMap<>();

  private final Map<Long, Window> windows = new HashMap<>();

  /** q7: every bid by price, the state the join keeps (the max of a window may still rise). */
  private final Map<Long, List<long[]>> bidsByPrice = new HashMap<>();

  private final NexmarkQuery query;
  private final Object[] blackhole = new Object[1024];
  private final Set<Pair> view = new HashSet<>();
  private long checksum;
  private long outputRows;

  RawLoop(NexmarkQuery query) {
    this.query = query;
  }

  /** Runs the query over every event {@code config} describes. */
  Result run(NexmarkConfig config, Clock clock) {
    long start = clock.nanoTime();
    for (SplitReader r : NexmarkSplitReader.allSplits(config)) {
      long offset = 0;
      while (!r.isExhausted(offset)) {
        SplitReader.Batch b = r.read(offset, config.maxChunkSize());
        offset = b.nextOffset();
        process(b.chunk());
      }
    }
    if (query == NexmarkQuery.Q7) {
      outputRows = q7Rows().size();
    }
    long fingerprint = 0;
    if (query == NexmarkQuery.Q5) {
      outputRows = q5Rows();
      fingerprint = q5Fingerprint;
    }
    if (query == NexmarkQuery.Q2) {
      for (Pair p : view) {
        fingerprint += fingerprint(new long[] {p.auction(), p.price()});
      }
    }
    long rows = query == NexmarkQuery.Q2 ? view.size() : outputRows;
    return new Result(clock.nanoTime() - start, rows, checksum + blackhole.length, fingerprint);
  }

  /** Folds one bid into its window's max and keeps it by price for the join. */
  private void q7(long auction, long bidder, long price, long time) {
    long start = time - Math.floorMod(time, WINDOW_MICROS);
    Window w = windows.computeIfAbsent(start, s -> new Window());
    if (price > w.max) {
      w.max = price;
    }
    bidsByPrice
        .computeIfAbsent(price, p -> new ArrayList<>())
        .add(new long[] {auction, bidder, time});
  }

  /** Counts one bid in each of the 5 hop windows (2 s slide, 10 s size) holding it. */
  private void q5(long auction, long time) {
    long last = time - Math.floorMod(time, SLIDE_MICROS);
    for (long start = last; start > time - WINDOW_MICROS; start -= SLIDE_MICROS) {
      counts.computeIfAbsent(start, s -> new HashMap<>())
          .computeIfAbsent(auction, a -> new long[1])[0]++;
    }
  }

  /** The fingerprint of q5's rows (auction, window_start, count), set by {@link #q5Rows}. */
  private long q5Fingerprint;

  /** q5's result size: per window, the auctions whose count is the window's highest. */
  private long q5Rows() {
    long rows = 0;
    for (Map.Entry<Long, Map<Long, long[]>> w : counts.entrySet()) {
      long max = 0;
      for (long[] c : w.getValue().values()) {
        max = Math.max(max, c[0]);
      }
      for (Map.Entry<Long, long[]> c : w.getValue().entrySet()) {
        if (c.getValue()[0] == max) {
          rows++;
          q5Fingerprint += fingerprint(new long[] {c.getKey(), w.getKey(), max});
        }
      }
    }
    return rows;
  }

  /**
   * The q7 result once every bid is folded: per window, the bids at its highest price whose time
   * lies in {@code [window_end - 10 s, window_end]} (so the next window's first instant too).
   */
  private Set<Q7Row> q7Rows() {
    Set<Q7Row> out = new HashSet<>();
    windows.forEach(
        (start, w) -> {
          for (long[] b : bidsByPrice.getOrDefault(w.max, List.of())) {
            if (b[2] >= start && b[2] <= start + WINDOW_MICROS) {
              out.add(new Q7Row(b[0], b[1], w.max, b[2], start));
            }
          }
        });
    return out;
  }

  private void process(StreamChunk c) {
    LongVector auction = (LongVector) c.column(0);
    LongVector bidder = (LongVector) c.column(1);
    LongVector price = (LongVector) c.column(2);
    LongVector time = (LongVector) c.column(5);
    ColumnVector extra = c.column(6);
    int n = c.size();
    for (int i = 0; i < n; i++) {
      switch (query) {
        case Q0 -> {
          checksum += auction.getLong(i) ^ bidder.getLong(i) ^ price.getLong(i) ^ time.getLong(i);
          blackhole[i & 1023] = extra.get(i);
          outputRows++;
        }
        case Q1 -> {
          BigDecimal euro = NexmarkQuery.RATE.multiply(BigDecimal.valueOf(price.getLong(i)));
          checksum += auction.getLong(i) ^ bidder.getLong(i) ^ time.getLong(i);
          blackhole[i & 1023] = euro;
          blackhole[(i + 512) & 1023] = extra.get(i);
          outputRows++;
        }
        case Q5 -> q5(auction.getLong(i), time.getLong(i));
        case Q7 -> q7(auction.getLong(i), bidder.getLong(i), price.getLong(i), time.getLong(i));
        case Q2 -> {
          long a = auction.getLong(i);
          if (a % NexmarkQuery.Q2_MOD == 0) {
            view.add(new Pair(a, price.getLong(i)));
          }
        }
      }
    }
  }
}

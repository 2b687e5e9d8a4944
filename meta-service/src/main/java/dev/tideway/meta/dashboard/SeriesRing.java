package dev.tideway.meta.dashboard;

import dev.tideway.common.check.Checks;
import java.util.Arrays;

/**
 * A bounded ring of per-second rows: a timestamp (ms, a multiple of 1000) and {@code width} values
 * per row, the newest {@code capacity} seconds kept. Writing a second already at the head updates
 * that row; a later second appends one (seconds without data have no row: charts draw a gap).
 *
 * <p>One writer thread (the barrier loop's owner); any thread may {@link #since read}. The writer
 * fills a row, then publishes it by a volatile write of {@link #count}; a reader reads {@code
 * count} first and skips the oldest rows the writer may be reusing meanwhile, so it sees only
 * published rows, apart from the head row whose values the writer may be updating (each value is
 * read whole).
 */
public final class SeriesRing {
  /** Rows a reader skips at the old end: the writer may be overwriting them. */
  static final int READ_MARGIN = 2;

  private final int capacity;
  private final int width;
  private final long[] times;
  private final double[] values;
  private volatile long count;

  public SeriesRing(int capacity, int width) {
    Checks.checkArgument(capacity > READ_MARGIN, "ring capacity %s too small", capacity);
    Checks.checkArgument(width > 0, "ring width %s", width);
    this.capacity = capacity;
    this.width = width;
    this.times = new long[capacity];
    this.values = new double[capacity * width];
  }

  /**
   * The row of {@code second} (ms, rounded down to the second): the head row if it is that second,
   * else a new row of NaNs. Returns its index for {@link #set}, or -1 when {@code ms} is before the
   * head row (the wall clock stepped back: the sample is dropped). Writer thread only.
   */
  public int row(long ms) {
    long second = ms - Math.floorMod(ms, 1000L);
    long n = count;
    if (n > 0) {
      int head = (int) ((n - 1) % capacity);
      if (times[head] == second) {
        return head;
      }
      if (second < times[head]) {
        return -1; // an older second than the head: dropped (clock step back)
      }
    }
    int slot = (int) (n % capacity);
    times[slot] = second;
    Arrays.fill(values, slot * width, slot * width + width, Double.NaN);
    count = n + 1;
    return slot;
  }

  /** Sets column {@code col} of row {@code row} (from {@link #row}; -1 is ignored). */
  public void set(int row, int col, double v) {
    if (row >= 0) {
      values[row * width + col] = v;
    }
  }

  /** Column {@code col} of row {@code row}, NaN if unset. */
  public double get(int row, int col) {
    return row < 0 ? Double.NaN : values[row * width + col];
  }

  /** The second of the newest row, or {@link Long#MIN_VALUE} when empty. */
  public long newest() {
    long n = count;
    return n == 0 ? Long.MIN_VALUE : times[(int) ((n - 1) % capacity)];
  }

  /** The rows newer than {@code sinceMs}, oldest first. */
  public Rows since(long sinceMs) {
    long n = count;
    long from = Math.max(0, n - capacity + READ_MARGIN);
    int size = 0;
    long[] t = new long[(int) (n - from)];
    double[][] cols = new double[width][t.length];
    for (long i = from; i < n; i++) {
      int slot = (int) (i % capacity);
      long ts = times[slot];
      if (ts <= sinceMs) {
        continue;
      }
      t[size] = ts;
      for (int c = 0; c < width; c++) {
        cols[c][size] = values[slot * width + c];
      }
      size++;
    }
    for (int c = 0; c < width; c++) {
      cols[c] = Arrays.copyOf(cols[c], size);
    }
    return new Rows(Arrays.copyOf(t, size), cols);
  }

  /** Rows read at once: {@code times[i]} with {@code columns[c][i]}. */
  public record Rows(long[] times, double[][] columns) {
    public int size() {
      return times.length;
    }
  }
}

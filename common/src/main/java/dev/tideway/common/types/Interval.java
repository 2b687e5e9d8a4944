package dev.tideway.common.types;

/**
 * An SQL {@code INTERVAL} value as PostgreSQL keeps it: months, days and microseconds, each signed
 * and independent ({@code 1 month} is not {@code 30 days}, though they compare equal).
 *
 * <p>Ordering follows PostgreSQL: intervals compare by their total length with a month counted as
 * 30 days and a day as 24 hours; ties between different representations ({@code 1 mon} vs {@code 30
 * days}) are broken by (months, days, micros) so the order is total and consistent with {@link
 * #equals}.
 */
public record Interval(int months, int days, long micros) implements Comparable<Interval> {
  public static final long MICROS_PER_DAY = 86_400_000_000L;
  public static final Interval ZERO = new Interval(0, 0, 0);

  public static Interval ofMicros(long micros) {
    return new Interval(0, 0, micros);
  }

  /**
   * The high 64 bits of the total length in microseconds as a signed 128-bit number (months×30 days
   * + days + micros). With {@link #totalMicrosLow()} it is exact for every value.
   */
  public long totalMicrosHigh() {
    return total()[0];
  }

  /** The low 64 bits of the total length; see {@link #totalMicrosHigh()}. */
  public long totalMicrosLow() {
    return total()[1];
  }

  private long[] total() {
    long dayCount = (long) months * 30 + days; // fits: |months*30| < 2^36
    long hi = Math.multiplyHigh(dayCount, MICROS_PER_DAY);
    long lo = dayCount * MICROS_PER_DAY;
    long sumLo = lo + micros;
    long carry = Long.compareUnsigned(sumLo, lo) < 0 ? 1 : 0;
    long sumHi = hi + (micros < 0 ? -1 : 0) + carry;
    return new long[] {sumHi, sumLo};
  }

  @Override
  public int compareTo(Interval o) {
    long[] a = total();
    long[] b = o.total();
    int c = Long.compare(a[0], b[0]);
    if (c == 0) {
      c = Long.compareUnsigned(a[1], b[1]);
    }
    if (c == 0) {
      c = Integer.compare(months, o.months);
    }
    if (c == 0) {
      c = Integer.compare(days, o.days);
    }
    if (c == 0) {
      c = Long.compare(micros, o.micros);
    }
    return c;
  }

  /** PostgreSQL's output style, e.g. {@code 1 year 2 mons 3 days 04:05:06.5}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    int years = months / 12;
    int mons = months % 12;
    if (years != 0) {
      sb.append(years).append(Math.abs(years) == 1 ? " year" : " years");
    }
    if (mons != 0) {
      sb.append(sb.isEmpty() ? "" : " ")
          .append(mons)
          .append(Math.abs(mons) == 1 ? " mon" : " mons");
    }
    if (days != 0) {
      sb.append(sb.isEmpty() ? "" : " ")
          .append(days)
          .append(Math.abs(days) == 1 ? " day" : " days");
    }
    if (micros != 0 || sb.isEmpty()) {
      sb.append(sb.isEmpty() ? "" : " ");
      if (micros < 0) {
        sb.append('-');
      }
      // Divide before taking the absolute value: -Long.MIN_VALUE does not exist.
      long secs = Math.abs(micros / 1_000_000);
      long frac = Math.abs(micros % 1_000_000);
      sb.append(String.format("%02d:%02d:%02d", secs / 3600, (secs / 60) % 60, secs % 60));
      if (frac != 0) {
        String f = String.format("%06d", frac).replaceAll("0+$", "");
        sb.append('.').append(f);
      }
    }
    return sb.toString();
  }
}

package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Interval;

/** An {@code INTERVAL} column as three parallel primitive arrays. */
public final class IntervalVector extends ColumnVector {
  private final int[] months;
  private final int[] days;
  private final long[] micros;

  IntervalVector(DataType type, int[] months, int[] days, long[] micros, int size, long[] nulls) {
    super(type, size, nulls);
    this.months = months;
    this.days = days;
    this.micros = micros;
  }

  public int months(int i) {
    return months[i];
  }

  public int days(int i) {
    return days[i];
  }

  public long micros(int i) {
    return micros[i];
  }

  @Override
  Object getNonNull(int i) {
    return new Interval(months[i], days[i], micros[i]);
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  int[] rawMonths() {
    return months;
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  int[] rawDays() {
    return days;
  }

  /** The backing array (may be longer than the size); for the wire codec only, never modify. */
  long[] rawMicros() {
    return micros;
  }
}

package dev.tideway.common.chunk;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Temporals;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;

/**
 * Builds one {@link ColumnVector}. Typed appends ({@link #appendLong}, ...) write straight into the
 * primitive array; {@link #append(Object)} converts a Java value (for rows and tests). Not
 * thread-safe; a builder is used once: {@link #build()} hands its arrays to the vector.
 */
public abstract sealed class ColumnBuilder {
  final DataType type;
  int size;
  private long[] nulls;

  ColumnBuilder(DataType type) {
    this.type = type;
  }

  static ColumnBuilder create(DataType type, int capacity) {
    int cap = Math.max(capacity, 4);
    return switch (type.id()) {
      case BOOLEAN -> new Bools(type, cap);
      case SMALLINT -> new Shorts(type, cap);
      case INT, DATE -> new Ints(type, cap);
      case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> new Longs(type, cap);
      case REAL -> new Floats(type, cap);
      case DOUBLE -> new Doubles(type, cap);
      case DECIMAL, VARCHAR, BYTEA -> new Objects(type, cap);
      case INTERVAL -> new Intervals(type, cap);
    };
  }

  public final DataType type() {
    return type;
  }

  public final int size() {
    return size;
  }

  /** Appends SQL NULL. */
  public final void appendNull() {
    ensureCapacity(size + 1);
    if (nulls == null) {
      nulls = new long[(capacity() + 63) >>> 6];
    } else if (nulls.length << 6 < capacity()) {
      nulls = Arrays.copyOf(nulls, (capacity() + 63) >>> 6);
    }
    nulls[size >>> 6] |= 1L << size;
    size++;
  }

  /** Appends a Java value of this column's type, or NULL for {@code null}. */
  public final void append(Object value) {
    if (value == null) {
      appendNull();
      return;
    }
    if (!type.accepts(value)) { // the message's class name only when it fails: a hot path
      throw new IllegalArgumentException(
          "column of type "
              + type
              + " cannot hold "
              + value
              + " ("
              + value.getClass().getSimpleName()
              + ")");
    }
    ensureCapacity(size + 1);
    set(size, value);
    size++;
  }

  /** Appends row {@code i} of {@code source}, which must have the same type. */
  public final void appendFrom(ColumnVector source, int i) {
    append(source.get(i));
  }

  public void appendBoolean(boolean v) {
    throw wrongType("boolean");
  }

  public void appendShort(short v) {
    throw wrongType("smallint");
  }

  public void appendInt(int v) {
    throw wrongType("int");
  }

  public void appendLong(long v) {
    throw wrongType("long");
  }

  public void appendFloat(float v) {
    throw wrongType("real");
  }

  public void appendDouble(double v) {
    throw wrongType("double");
  }

  private IllegalArgumentException wrongType(String what) {
    return new IllegalArgumentException("cannot append a " + what + " to a " + type + " column");
  }

  /** The vector holding what was appended. */
  public final ColumnVector build() {
    long[] n = nulls == null ? null : Arrays.copyOf(nulls, (size + 63) >>> 6);
    return build(n);
  }

  abstract ColumnVector build(long[] nullBitmap);

  abstract int capacity();

  abstract void grow(int newCapacity);

  /** Stores a non-null, type-checked value at {@code index} (capacity already ensured). */
  abstract void set(int index, Object value);

  final void ensureCapacity(int needed) {
    if (needed > capacity()) {
      grow(Math.max(needed, capacity() * 2));
    }
  }

  static final class Bools extends ColumnBuilder {
    private boolean[] values;

    Bools(DataType type, int cap) {
      super(type);
      values = new boolean[cap];
    }

    @Override
    public void appendBoolean(boolean v) {
      ensureCapacity(size + 1);
      values[size++] = v;
    }

    @Override
    void set(int index, Object value) {
      values[index] = (Boolean) value;
    }

    @Override
    int capacity() {
      return values.length;
    }

    @Override
    void grow(int n) {
      values = Arrays.copyOf(values, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new BoolVector(type, values, size, nulls);
    }
  }

  static final class Shorts extends ColumnBuilder {
    private short[] values;

    Shorts(DataType type, int cap) {
      super(type);
      values = new short[cap];
    }

    @Override
    public void appendShort(short v) {
      ensureCapacity(size + 1);
      values[size++] = v;
    }

    @Override
    void set(int index, Object value) {
      values[index] = (Short) value;
    }

    @Override
    int capacity() {
      return values.length;
    }

    @Override
    void grow(int n) {
      values = Arrays.copyOf(values, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new ShortVector(type, values, size, nulls);
    }
  }

  static final class Ints extends ColumnBuilder {
    private int[] values;

    Ints(DataType type, int cap) {
      super(type);
      values = new int[cap];
    }

    @Override
    public void appendInt(int v) {
      ensureCapacity(size + 1);
      values[size++] = v;
    }

    @Override
    void set(int index, Object value) {
      values[index] = value instanceof LocalDate d ? Temporals.dateToDays(d) : (Integer) value;
    }

    @Override
    int capacity() {
      return values.length;
    }

    @Override
    void grow(int n) {
      values = Arrays.copyOf(values, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new IntVector(type, values, size, nulls);
    }
  }

  static final class Longs extends ColumnBuilder {
    private long[] values;

    Longs(DataType type, int cap) {
      super(type);
      values = new long[cap];
    }

    @Override
    public void appendLong(long v) {
      ensureCapacity(size + 1);
      values[size++] = v;
    }

    @Override
    void set(int index, Object value) {
      values[index] =
          switch (type.id()) {
            case TIME -> Temporals.timeToMicros((LocalTime) value);
            case TIMESTAMP -> Temporals.timestampToMicros((LocalDateTime) value);
            case TIMESTAMPTZ -> Temporals.instantToMicros((Instant) value);
            default -> (Long) value;
          };
    }

    @Override
    int capacity() {
      return values.length;
    }

    @Override
    void grow(int n) {
      values = Arrays.copyOf(values, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new LongVector(type, values, size, nulls);
    }
  }

  static final class Floats extends ColumnBuilder {
    private float[] values;

    Floats(DataType type, int cap) {
      super(type);
      values = new float[cap];
    }

    @Override
    public void appendFloat(float v) {
      ensureCapacity(size + 1);
      values[size++] = v;
    }

    @Override
    void set(int index, Object value) {
      values[index] = (Float) value;
    }

    @Override
    int capacity() {
      return values.length;
    }

    @Override
    void grow(int n) {
      values = Arrays.copyOf(values, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new FloatVector(type, values, size, nulls);
    }
  }

  static final class Doubles extends ColumnBuilder {
    private double[] values;

    Doubles(DataType type, int cap) {
      super(type);
      values = new double[cap];
    }

    @Override
    public void appendDouble(double v) {
      ensureCapacity(size + 1);
      values[size++] = v;
    }

    @Override
    void set(int index, Object value) {
      values[index] = (Double) value;
    }

    @Override
    int capacity() {
      return values.length;
    }

    @Override
    void grow(int n) {
      values = Arrays.copyOf(values, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new DoubleVector(type, values, size, nulls);
    }
  }

  static final class Objects extends ColumnBuilder {
    private Object[] values;

    Objects(DataType type, int cap) {
      super(type);
      values = new Object[cap];
    }

    @Override
    void set(int index, Object value) {
      values[index] = value instanceof BigDecimal d ? Datums.decimal(type, d) : value;
    }

    @Override
    int capacity() {
      return values.length;
    }

    @Override
    void grow(int n) {
      values = Arrays.copyOf(values, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new ObjectVector(type, values, size, nulls);
    }
  }

  static final class Intervals extends ColumnBuilder {
    private int[] months;
    private int[] days;
    private long[] micros;

    Intervals(DataType type, int cap) {
      super(type);
      months = new int[cap];
      days = new int[cap];
      micros = new long[cap];
    }

    @Override
    void set(int index, Object value) {
      Interval v = (Interval) value;
      months[index] = v.months();
      days[index] = v.days();
      micros[index] = v.micros();
    }

    @Override
    int capacity() {
      return months.length;
    }

    @Override
    void grow(int n) {
      months = Arrays.copyOf(months, n);
      days = Arrays.copyOf(days, n);
      micros = Arrays.copyOf(micros, n);
    }

    @Override
    ColumnVector build(long[] nulls) {
      return new IntervalVector(type, months, days, micros, size, nulls);
    }
  }
}

package dev.tideway.common.chunk;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The Kryo serializer of {@link StreamChunk}: columns go over the wire as their primitive arrays,
 * copied in bulk, never value by value through boxing. Registered by {@code
 * dev.tideway.common.serde.TidewayKryo}; it lives in this package to read the vectors' backing
 * arrays and build vectors without copying.
 *
 * <p>Wire layout (all multi-byte numbers little-endian; "varint" is Kryo's unsigned variable-length
 * int):
 *
 * <pre>
 * varint rows, varint columns
 * byte[rows] op codes ({@link Op#code()})
 * bitmap visibility
 * per column:
 *   byte type code ({@link TypeId#code()}), varint precision, varint scale
 *   bitmap nulls
 *   values, by physical kind:
 *     BOOLEAN                     byte[rows] (0/1)
 *     SMALLINT                    2 x rows bytes
 *     INT, DATE                   4 x rows bytes
 *     BIGINT, TIME, TIMESTAMP[TZ] 8 x rows bytes
 *     REAL / DOUBLE               4 / 8 x rows bytes (raw IEEE 754 bits)
 *     INTERVAL                    months (4 x rows), days (4 x rows), micros (8 x rows)
 *     DECIMAL, VARCHAR, BYTEA     non-null rows only: DECIMAL zigzag-varint scale + varint length +
 *                                 unscaled two's-complement bytes; VARCHAR Kryo string; BYTEA
 *                                 varint length + bytes
 * bitmap = byte 0 (absent: all visible / no nulls) | byte 1 + ceil(rows / 64) longs
 * </pre>
 *
 * NULL slots of primitive columns carry whatever the array holds (zero from the builder); the null
 * bitmap decides. The enclosing message carries the format version, so this layout changes only
 * together with {@code TidewayKryo.FORMAT_VERSION}.
 *
 * <p>Reading validates everything it allocates by: row and column counts are bounded and never
 * larger than the bytes left in the input, op and type codes must be known, and {@link DataType}'s
 * constructor checks precision and scale.
 *
 * <p>Not thread-safe: it keeps a scratch buffer, and Kryo instances (each with its own serializer)
 * are used by one thread at a time through the pool.
 */
public final class StreamChunkSerializer extends Serializer<StreamChunk> {
  /** Rows accepted when reading; far above any chunk an executor builds. */
  public static final int MAX_ROWS = 1 << 22;

  /** Columns accepted when reading. */
  public static final int MAX_COLUMNS = 1 << 12;

  /** Reused staging area for the byte form of one primitive array. */
  private byte[] scratch = new byte[8 * 1024];

  public StreamChunkSerializer() {
    setImmutable(true);
    setAcceptsNull(false);
  }

  @Override
  public void write(Kryo kryo, Output out, StreamChunk chunk) {
    int n = chunk.size();
    out.writeVarInt(n, true);
    out.writeVarInt(chunk.columnCount(), true);
    out.writeBytes(chunk.opsArray(), 0, n);
    writeBitmap(out, chunk.visibilityBitmap(), n);
    for (int c = 0; c < chunk.columnCount(); c++) {
      writeColumn(out, chunk.column(c), n);
    }
  }

  @Override
  public StreamChunk read(Kryo kryo, Input in, Class<? extends StreamChunk> type) {
    int n = readCount(in, MAX_ROWS, "rows");
    int columnCount = readCount(in, MAX_COLUMNS, "columns");
    checkRemaining(in, n, "op codes");
    byte[] ops = in.readBytes(n);
    for (int i = 0; i < n; i++) {
      if (ops[i] < Op.INSERT.code() || ops[i] > Op.UPDATE_INSERT.code()) {
        throw new KryoException("chunk row " + i + ": unknown op code " + ops[i]);
      }
    }
    long[] visibility = readBitmap(in, n, "visibility");
    ColumnVector[] columns = new ColumnVector[columnCount];
    for (int c = 0; c < columnCount; c++) {
      columns[c] = readColumn(in, n, c);
    }
    return new StreamChunk(ops, columns, n, visibility);
  }

  /**
   * An upper bound of {@code chunk}'s encoded size in bytes, without encoding it: what a sender
   * cutting messages to a transport's frame needs. Fixed-width columns cost their width per row,
   * text up to three bytes a char.
   */
  public static long estimatedBytes(StreamChunk chunk) {
    int n = chunk.size();
    long bytes = 16 + n + (n / 8 + 1);
    for (int c = 0; c < chunk.columnCount(); c++) {
      ColumnVector v = chunk.column(c);
      bytes += 12 + (n / 8 + 1);
      if (v instanceof BoolVector) {
        bytes += n;
      } else if (v instanceof ShortVector) {
        bytes += 2L * n;
      } else if (v instanceof IntVector || v instanceof FloatVector) {
        bytes += 4L * n;
      } else if (v instanceof LongVector || v instanceof DoubleVector) {
        bytes += 8L * n;
      } else if (v instanceof IntervalVector) {
        bytes += 16L * n;
      } else {
        Object[] a = ((ObjectVector) v).rawValues();
        for (int i = 0; i < n; i++) {
          bytes += estimatedBytes(a[i]);
        }
      }
    }
    return bytes;
  }

  /**
   * An upper bound of one value's encoded size in bytes (see {@link #estimatedBytes(StreamChunk)}).
   */
  public static long estimatedBytes(Object value) {
    if (value == null) {
      return 1;
    }
    if (value instanceof String s) {
      return 5 + 3L * s.length();
    }
    if (value instanceof byte[] b) {
      return 5 + b.length;
    }
    if (value instanceof java.math.BigDecimal d) {
      return 10 + d.unscaledValue().bitLength() / 8;
    }
    return 17; // fixed-width values, intervals
  }

  private void writeColumn(Output out, ColumnVector v, int n) {
    DataType t = v.type();
    out.writeByte(t.id().code());
    out.writeVarInt(t.precision(), true);
    out.writeVarInt(t.scale(), true);
    writeBitmap(out, v.nullBitmap(), n);
    if (v instanceof BoolVector b) {
      boolean[] a = b.rawValues();
      byte[] bytes = scratch(n);
      for (int i = 0; i < n; i++) {
        bytes[i] = (byte) (a[i] ? 1 : 0);
      }
      out.writeBytes(bytes, 0, n);
    } else if (v instanceof ShortVector s) {
      ByteBuffer view = writeView(out, n * 2);
      view.asShortBuffer().put(s.rawValues(), 0, n);
      commit(out, view, n * 2);
    } else if (v instanceof IntVector iv) {
      writeInts(out, iv.rawValues(), n);
    } else if (v instanceof LongVector l) {
      writeLongs(out, l.rawValues(), n);
    } else if (v instanceof FloatVector f) {
      ByteBuffer view = writeView(out, n * 4);
      view.asFloatBuffer().put(f.rawValues(), 0, n);
      commit(out, view, n * 4);
    } else if (v instanceof DoubleVector d) {
      ByteBuffer view = writeView(out, n * 8);
      view.asDoubleBuffer().put(d.rawValues(), 0, n);
      commit(out, view, n * 8);
    } else if (v instanceof IntervalVector iv) {
      writeInts(out, iv.rawMonths(), n);
      writeInts(out, iv.rawDays(), n);
      writeLongs(out, iv.rawMicros(), n);
    } else {
      writeObjects(out, (ObjectVector) v, n);
    }
  }

  private ColumnVector readColumn(Input in, int n, int c) {
    TypeId id = TypeId.fromCode(in.readByte());
    DataType t = new DataType(id, in.readVarInt(true), in.readVarInt(true));
    long[] nulls = readBitmap(in, n, "column " + c + " nulls");
    return switch (id) {
      case BOOLEAN -> {
        checkRemaining(in, n, "column " + c);
        in.readBytes(scratch(n), 0, n);
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
          a[i] = scratch[i] != 0;
        }
        yield new BoolVector(t, a, n, nulls);
      }
      case SMALLINT -> {
        short[] a = new short[n];
        read(in, n * 2, c).asShortBuffer().get(a);
        yield new ShortVector(t, a, n, nulls);
      }
      case INT, DATE -> new IntVector(t, readInts(in, n, c), n, nulls);
      case BIGINT, TIME, TIMESTAMP, TIMESTAMPTZ -> new LongVector(t, readLongs(in, n, c), n, nulls);
      case REAL -> {
        float[] a = new float[n];
        read(in, n * 4, c).asFloatBuffer().get(a);
        yield new FloatVector(t, a, n, nulls);
      }
      case DOUBLE -> {
        double[] a = new double[n];
        read(in, n * 8, c).asDoubleBuffer().get(a);
        yield new DoubleVector(t, a, n, nulls);
      }
      case INTERVAL -> {
        int[] months = readInts(in, n, c);
        int[] days = readInts(in, n, c);
        yield new IntervalVector(t, months, days, readLongs(in, n, c), n, nulls);
      }
      case DECIMAL, VARCHAR, BYTEA -> readObjects(in, t, n, nulls, c);
    };
  }

  private static void writeObjects(Output out, ObjectVector v, int n) {
    Object[] a = v.rawValues();
    TypeId id = v.type().id();
    for (int i = 0; i < n; i++) {
      if (v.isNull(i)) {
        continue;
      }
      switch (id) {
        case DECIMAL -> {
          BigDecimal d = (BigDecimal) a[i];
          out.writeVarInt(d.scale(), false);
          byte[] unscaled = d.unscaledValue().toByteArray();
          out.writeVarInt(unscaled.length, true);
          out.writeBytes(unscaled);
        }
        case VARCHAR -> out.writeString((String) a[i]);
        default -> {
          byte[] b = (byte[]) a[i];
          out.writeVarInt(b.length, true);
          out.writeBytes(b);
        }
      }
    }
  }

  private static ColumnVector readObjects(Input in, DataType t, int n, long[] nulls, int c) {
    Object[] a = new Object[n];
    for (int i = 0; i < n; i++) {
      if (nulls != null && (nulls[i >>> 6] & (1L << i)) != 0) {
        continue;
      }
      a[i] =
          switch (t.id()) {
            case DECIMAL -> {
              int scale = in.readVarInt(false);
              int len = readCount(in, Integer.MAX_VALUE, "column " + c + " decimal bytes");
              checkRemaining(in, len, "column " + c + " decimal");
              yield new BigDecimal(new BigInteger(in.readBytes(len)), scale);
            }
            case VARCHAR -> {
              String s = in.readString();
              if (s == null) {
                throw new KryoException("chunk column " + c + " row " + i + ": null string");
              }
              yield s;
            }
            default -> {
              int len = readCount(in, Integer.MAX_VALUE, "column " + c + " bytea length");
              checkRemaining(in, len, "column " + c + " bytea");
              yield in.readBytes(len);
            }
          };
    }
    return new ObjectVector(t, a, n, nulls);
  }

  private void writeBitmap(Output out, long[] bits, int n) {
    if (bits == null) {
      out.writeByte(0);
    } else {
      out.writeByte(1);
      writeLongs(out, bits, words(n));
    }
  }

  private long[] readBitmap(Input in, int n, String what) {
    byte flag = in.readByte();
    if (flag == 0) {
      return null;
    }
    if (flag != 1) {
      throw new KryoException("chunk " + what + ": bad bitmap flag " + flag);
    }
    return readLongs(in, words(n), -1);
  }

  private void writeInts(Output out, int[] a, int n) {
    ByteBuffer view = writeView(out, n * 4);
    view.asIntBuffer().put(a, 0, n);
    commit(out, view, n * 4);
  }

  private void writeLongs(Output out, long[] a, int n) {
    ByteBuffer view = writeView(out, n * 8);
    view.asLongBuffer().put(a, 0, n);
    commit(out, view, n * 8);
  }

  /**
   * A little-endian view of the next {@code bytes} bytes of a plain {@link Output}'s own buffer
   * when they fit (no staging copy), else of the scratch buffer; pair with {@link #commit}.
   */
  private ByteBuffer writeView(Output out, int bytes) {
    if (out.getClass() == Output.class && out.getBuffer().length - out.position() >= bytes) {
      return ByteBuffer.wrap(out.getBuffer(), out.position(), bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
    return wrap(bytes);
  }

  /** Advances {@code out} past bytes written into a {@link #writeView}. */
  private void commit(Output out, ByteBuffer view, int bytes) {
    if (view.array() == scratch) {
      out.writeBytes(scratch, 0, bytes);
    } else {
      out.setPosition(out.position() + bytes);
    }
  }

  private int[] readInts(Input in, int n, int c) {
    int[] a = new int[n];
    read(in, n * 4, c).asIntBuffer().get(a);
    return a;
  }

  private long[] readLongs(Input in, int n, int c) {
    long[] a = new long[n];
    read(in, n * 8, c).asLongBuffer().get(a);
    return a;
  }

  /**
   * A little-endian view of the next {@code bytes} input bytes, consumed: in place for a plain
   * byte-array {@link Input}, else copied into the scratch buffer.
   */
  private ByteBuffer read(Input in, int bytes, int c) {
    checkRemaining(in, bytes, c < 0 ? "bitmap" : "column " + c);
    if (in.getClass() == Input.class && in.getInputStream() == null) {
      int at = in.position();
      in.setPosition(at + bytes);
      return ByteBuffer.wrap(in.getBuffer(), at, bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
    in.readBytes(scratch(bytes), 0, bytes);
    return ByteBuffer.wrap(scratch, 0, bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** A little-endian view of the first {@code bytes} bytes of the (grown) scratch buffer. */
  private ByteBuffer wrap(int bytes) {
    return ByteBuffer.wrap(scratch(bytes), 0, bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private byte[] scratch(int bytes) {
    if (scratch.length < bytes) {
      scratch = new byte[Math.max(bytes, scratch.length * 2)];
    }
    return scratch;
  }

  private static int words(int n) {
    return (n + 63) >>> 6;
  }

  private static int readCount(Input in, int max, String what) {
    int v = in.readVarInt(true);
    if (v < 0 || v > max) {
      throw new KryoException("chunk " + what + " count " + v + " out of [0, " + max + "]");
    }
    return v;
  }

  /**
   * Fails when a byte-array input holds fewer than {@code bytes} more bytes, so a corrupt length
   * cannot make the reader allocate more than the message could carry.
   */
  private static void checkRemaining(Input in, long bytes, String what) {
    if (in.getInputStream() == null && bytes > in.limit() - in.position()) {
      throw new KryoException(
          "chunk "
              + what
              + " needs "
              + bytes
              + " bytes but only "
              + (in.limit() - in.position())
              + " remain");
    }
  }
}

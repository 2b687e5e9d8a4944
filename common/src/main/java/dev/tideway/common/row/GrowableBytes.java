package dev.tideway.common.row;

import dev.tideway.common.check.Checks;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A reusable, growable byte array that the key and value encoders write into. Callers {@link
 * #reset()} it between records and read the bytes through {@link #array()} and {@link #size()} (no
 * copy) or {@link #toByteArray()} (a copy), so an encoding loop allocates nothing once the buffer
 * has grown to its working size.
 *
 * <p>Big-endian writes ({@code putIntBE}, ...) serve the memcomparable key encoding, whose byte
 * order must equal value order; little-endian writes ({@code putIntLE}, ...) serve the value
 * encoding, where x86 and ARM write them natively.
 *
 * <p>Not thread-safe: one owner (an executor, a state table) reuses it.
 */
public final class GrowableBytes {
  private static final VarHandle SHORT_BE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  private static final VarHandle SHORT_LE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] bytes;
  private int size;

  public GrowableBytes() {
    this(64);
  }

  public GrowableBytes(int initialCapacity) {
    if (initialCapacity < 0) {
      Checks.checkArgument(false, "capacity must be >= 0, got %s", initialCapacity);
    }
    bytes = new byte[Math.max(initialCapacity, 8)];
  }

  /** Forgets the content and keeps the capacity. */
  public GrowableBytes reset() {
    size = 0;
    return this;
  }

  /** Bytes written since the last {@link #reset()}. */
  public int size() {
    return size;
  }

  /**
   * Sets the size after a caller wrote bytes straight into {@link #array()} (having made room with
   * {@link #ensureRemaining}).
   */
  public void advanceTo(int newSize) {
    if (newSize < size || newSize > bytes.length) {
      Checks.checkArgument(
          false, "cannot advance from %s to %s with capacity %s", size, newSize, bytes.length);
    }
    size = newSize;
  }

  /** Drops everything after the first {@code newSize} bytes. */
  public void truncate(int newSize) {
    if (newSize < 0 || newSize > size) {
      Checks.checkArgument(false, "cannot truncate %s bytes to %s", size, newSize);
    }
    size = newSize;
  }

  /**
   * The backing array; bytes {@code [0, size())} are the content. Valid until the next write, which
   * may replace the array.
   */
  public byte[] array() {
    return bytes;
  }

  /** A copy of the content. */
  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, size);
  }

  /** Makes room for {@code n} more bytes. */
  public void ensureRemaining(int n) {
    int needed = size + n;
    if (needed > bytes.length || needed < 0) {
      if (needed < 0) {
        Checks.checkArgument(false, "buffer would exceed 2 GiB: %s + %s bytes", size, n);
      }
      bytes =
          Arrays.copyOf(
              bytes, Math.max(needed, (int) Math.min(Integer.MAX_VALUE - 8L, bytes.length * 2L)));
    }
  }

  public void put(int b) {
    ensureRemaining(1);
    bytes[size++] = (byte) b;
  }

  public void put(byte[] src) {
    put(src, 0, src.length);
  }

  public void put(byte[] src, int offset, int length) {
    ensureRemaining(length);
    System.arraycopy(src, offset, bytes, size, length);
    size += length;
  }

  public void putShortBE(short v) {
    ensureRemaining(2);
    SHORT_BE.set(bytes, size, v);
    size += 2;
  }

  public void putIntBE(int v) {
    ensureRemaining(4);
    INT_BE.set(bytes, size, v);
    size += 4;
  }

  public void putLongBE(long v) {
    ensureRemaining(8);
    LONG_BE.set(bytes, size, v);
    size += 8;
  }

  public void putShortLE(short v) {
    ensureRemaining(2);
    SHORT_LE.set(bytes, size, v);
    size += 2;
  }

  public void putIntLE(int v) {
    ensureRemaining(4);
    INT_LE.set(bytes, size, v);
    size += 4;
  }

  public void putLongLE(long v) {
    ensureRemaining(8);
    LONG_LE.set(bytes, size, v);
    size += 8;
  }

  /** An unsigned LEB128 varint: 7 bits a byte, low bits first, high bit = more bytes follow. */
  public void putVarInt(int v) {
    ensureRemaining(5);
    while ((v & ~0x7F) != 0) {
      bytes[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    bytes[size++] = (byte) v;
  }

  /** Flips every bit of bytes {@code [from, size())} (descending order in key encodings). */
  public void invertFrom(int from) {
    for (int i = from; i < size; i++) {
      bytes[i] = (byte) ~bytes[i];
    }
  }

  // Readers over plain arrays, shared by the decoders.

  public static short getShortBE(byte[] b, int pos) {
    return (short) SHORT_BE.get(b, pos);
  }

  public static int getIntBE(byte[] b, int pos) {
    return (int) INT_BE.get(b, pos);
  }

  public static long getLongBE(byte[] b, int pos) {
    return (long) LONG_BE.get(b, pos);
  }

  public static short getShortLE(byte[] b, int pos) {
    return (short) SHORT_LE.get(b, pos);
  }

  public static int getIntLE(byte[] b, int pos) {
    return (int) INT_LE.get(b, pos);
  }

  public static long getLongLE(byte[] b, int pos) {
    return (long) LONG_LE.get(b, pos);
  }
}

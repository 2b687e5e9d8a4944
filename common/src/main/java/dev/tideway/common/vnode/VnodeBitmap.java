package dev.tideway.common.vnode;

import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * A set of vnodes: 256 bits in four longs. The vnodes an actor owns, the vnodes a fragment's actors
 * split between them, the vnodes an {@code Update} mutation moves. Immutable value; safe to share.
 * {@link #toBytes()} gives the stable 32-byte form (bit {@code v} is bit {@code v % 8} of byte
 * {@code v / 8}) for persistence and the wire.
 */
public final class VnodeBitmap {
  private static final int WORDS = VirtualNode.COUNT / 64;

  public static final VnodeBitmap EMPTY = new VnodeBitmap(new long[WORDS]);
  public static final VnodeBitmap ALL = range(0, VirtualNode.COUNT);

  private final long[] words;

  private VnodeBitmap(long[] words) {
    this.words = words;
  }

  /** The vnodes {@code [from, to)}. */
  public static VnodeBitmap range(int from, int to) {
    Checks.checkArgument(
        0 <= from && from <= to && to <= VirtualNode.COUNT,
        "vnode range [%s, %s) outside [0, %s]",
        from,
        to,
        VirtualNode.COUNT);
    long[] w = new long[WORDS];
    for (int v = from; v < to; v++) {
      w[v >>> 6] |= 1L << v;
    }
    return new VnodeBitmap(w);
  }

  public static VnodeBitmap of(int... vnodes) {
    long[] w = new long[WORDS];
    for (int v : vnodes) {
      w[checkVnode(v) >>> 6] |= 1L << v;
    }
    return new VnodeBitmap(w);
  }

  /**
   * Splits all 256 vnodes into {@code n} contiguous ranges whose sizes differ by at most one (the
   * first {@code 256 % n} ranges get one more); range {@code i} is actor {@code i}'s.
   */
  public static List<VnodeBitmap> split(int n) {
    Checks.checkArgument(
        n >= 1 && n <= VirtualNode.COUNT, "cannot split %s vnodes %s ways", VirtualNode.COUNT, n);
    List<VnodeBitmap> out = new ArrayList<>(n);
    int base = VirtualNode.COUNT / n;
    int extra = VirtualNode.COUNT % n;
    int from = 0;
    for (int i = 0; i < n; i++) {
      int to = from + base + (i < extra ? 1 : 0);
      out.add(range(from, to));
      from = to;
    }
    return out;
  }

  private static int checkVnode(int v) {
    return Checks.checkIndex(v, VirtualNode.COUNT, "vnode");
  }

  public boolean contains(int vnode) {
    return (words[checkVnode(vnode) >>> 6] & (1L << vnode)) != 0;
  }

  /** Number of vnodes in the set. */
  public int count() {
    int n = 0;
    for (long w : words) {
      n += Long.bitCount(w);
    }
    return n;
  }

  public boolean isEmpty() {
    return count() == 0;
  }

  /** The smallest vnode {@code >= from} in the set, or -1. */
  public int next(int from) {
    for (int w = from >>> 6; from < VirtualNode.COUNT && w < WORDS; w++) {
      long bits = words[w] & (-1L << (w == from >>> 6 ? from : 0));
      if (bits != 0) {
        return (w << 6) + Long.numberOfTrailingZeros(bits);
      }
    }
    return -1;
  }

  /** Calls {@code action} with each vnode in ascending order. */
  public void forEach(IntConsumer action) {
    for (int w = 0; w < WORDS; w++) {
      long bits = words[w];
      while (bits != 0) {
        action.accept((w << 6) + Long.numberOfTrailingZeros(bits));
        bits &= bits - 1;
      }
    }
  }

  /** The vnodes in ascending order. */
  public int[] toArray() {
    int[] out = new int[count()];
    int[] i = {0};
    forEach(v -> out[i[0]++] = v);
    return out;
  }

  public VnodeBitmap union(VnodeBitmap other) {
    long[] w = new long[WORDS];
    for (int i = 0; i < WORDS; i++) {
      w[i] = words[i] | other.words[i];
    }
    return new VnodeBitmap(w);
  }

  public VnodeBitmap intersect(VnodeBitmap other) {
    long[] w = new long[WORDS];
    for (int i = 0; i < WORDS; i++) {
      w[i] = words[i] & other.words[i];
    }
    return new VnodeBitmap(w);
  }

  /** This set without the vnodes of {@code other}. */
  public VnodeBitmap minus(VnodeBitmap other) {
    long[] w = new long[WORDS];
    for (int i = 0; i < WORDS; i++) {
      w[i] = words[i] & ~other.words[i];
    }
    return new VnodeBitmap(w);
  }

  /** The 32-byte persisted form: bit {@code v % 8} of byte {@code v / 8} set = vnode v. */
  public byte[] toBytes() {
    byte[] out = new byte[VirtualNode.COUNT / 8];
    for (int v = 0; v < VirtualNode.COUNT; v++) {
      if ((words[v >>> 6] & (1L << v)) != 0) {
        out[v >>> 3] |= (byte) (1 << (v & 7));
      }
    }
    return out;
  }

  public static VnodeBitmap fromBytes(byte[] bytes) {
    Checks.checkArgument(
        bytes.length == VirtualNode.COUNT / 8,
        "a vnode bitmap has %s bytes, got %s",
        VirtualNode.COUNT / 8,
        bytes.length);
    long[] w = new long[WORDS];
    for (int v = 0; v < VirtualNode.COUNT; v++) {
      if ((bytes[v >>> 3] & (1 << (v & 7))) != 0) {
        w[v >>> 6] |= 1L << v;
      }
    }
    return new VnodeBitmap(w);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VnodeBitmap b && Arrays.equals(words, b.words);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(words);
  }

  /** Ranges, e.g. {@code {0..63, 100}}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    int v = next(0);
    while (v >= 0) {
      int end = v;
      while (end + 1 < VirtualNode.COUNT && contains(end + 1)) {
        end++;
      }
      sb.append(sb.length() > 1 ? ", " : "").append(v);
      if (end > v) {
        sb.append("..").append(end);
      }
      v = end + 1 < VirtualNode.COUNT ? next(end + 1) : -1;
    }
    return sb.append('}').toString();
  }
}

package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;
import java.util.BitSet;

/**
 * Which of the {@value #VNODE_COUNT} vnodes an actor owns. Immutable.
 *
 * <p>Persisted as exactly {@code VNODE_COUNT / 8} bytes, little-endian bit order within the {@link
 * BitSet#toByteArray()} convention, zero-padded.
 */
public final class VnodeBitmap {
  public static final int VNODE_COUNT = 256;

  private final BitSet bits;

  private VnodeBitmap(BitSet bits) {
    Checks.checkArgument(
        bits.length() <= VNODE_COUNT, "vnode bitmap has bit %s set", bits.length() - 1);
    this.bits = (BitSet) bits.clone();
  }

  /** Vnodes {@code [from, to)}. */
  public static VnodeBitmap range(int from, int to) {
    Checks.checkArgument(
        0 <= from && from <= to && to <= VNODE_COUNT, "vnode range [%s, %s)", from, to);
    BitSet b = new BitSet(VNODE_COUNT);
    b.set(from, to);
    return new VnodeBitmap(b);
  }

  public static VnodeBitmap all() {
    return range(0, VNODE_COUNT);
  }

  public boolean contains(int vnode) {
    return bits.get(vnode);
  }

  public int count() {
    return bits.cardinality();
  }

  public boolean intersects(VnodeBitmap o) {
    return bits.intersects(o.bits);
  }

  public VnodeBitmap or(VnodeBitmap o) {
    BitSet b = (BitSet) bits.clone();
    b.or(o.bits);
    return new VnodeBitmap(b);
  }

  public byte[] toBytes() {
    byte[] out = new byte[VNODE_COUNT / 8];
    byte[] raw = bits.toByteArray();
    System.arraycopy(raw, 0, out, 0, raw.length);
    return out;
  }

  public static VnodeBitmap fromBytes(byte[] b) {
    Checks.checkArgument(
        b.length == VNODE_COUNT / 8,
        "vnode bitmap needs %s bytes, got %s",
        VNODE_COUNT / 8,
        b.length);
    return new VnodeBitmap(BitSet.valueOf(b));
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof VnodeBitmap v && v.bits.equals(bits);
  }

  @Override
  public int hashCode() {
    return bits.hashCode();
  }

  @Override
  public String toString() {
    return bits.toString();
  }
}

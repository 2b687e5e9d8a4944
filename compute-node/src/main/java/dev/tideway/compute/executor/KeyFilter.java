package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import java.util.List;

/**
 * A Bloom filter over the keys a stateful executor has written to one of its state tables: when it
 * says a key was never written, the executor knows the table holds no row under that key without
 * reading it (a blind insert, or an empty join match). A "maybe" answer costs a state-table read,
 * so false positives cost time, never correctness. Deletes leave their bits set.
 *
 * <p>Invariant: every key present in the table (committed or written by this executor since) was
 * {@link #add}ed. The executor builds the filter when its tables are initialised: empty for an
 * empty table, otherwise by scanning the table once (recovery), and drops it with the executor.
 *
 * <p>Confined to the executor's actor thread.
 */
final class KeyFilter {
  private final long[] bits;
  private final int mask;

  /**
   * True when Java equality of values of every type in {@code types} is equality of their encoded
   * state keys, so rows of them may key a filter or a cache (not DECIMAL, whose scales differ in
   * Java but not in keys, nor floats, whose zeros and NaNs do the same).
   */
  static boolean exact(List<DataType> types) {
    for (DataType t : types) {
      switch (t.id()) {
        case BOOLEAN, SMALLINT, INT, BIGINT, VARCHAR, DATE, TIME, TIMESTAMP, TIMESTAMPTZ -> {}
        default -> {
          return false;
        }
      }
    }
    return true;
  }

  /** A filter of {@code 2^log2Bits} bits. */
  KeyFilter(int log2Bits) {
    Checks.checkArgument(
        log2Bits >= 6 && log2Bits <= 30, "key filter size 2^%s out of [2^6, 2^30]", log2Bits);
    this.bits = new long[1 << (log2Bits - 6)];
    this.mask = (1 << log2Bits) - 1;
  }

  void add(Row key) {
    long h = mix(key.hashCode());
    set((int) h);
    set((int) (h >>> 32));
  }

  /** False when {@code key} was never added; true when it may have been. */
  boolean mayContain(Row key) {
    long h = mix(key.hashCode());
    return isSet((int) h) && isSet((int) (h >>> 32));
  }

  private void set(int h) {
    int b = h & mask;
    bits[b >>> 6] |= 1L << b;
  }

  private boolean isSet(int h) {
    int b = h & mask;
    return (bits[b >>> 6] & (1L << b)) != 0;
  }

  /** SplitMix64's finalizer: spreads a 32-bit hash over two independent-looking halves. */
  private static long mix(int hash) {
    long z = hash * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}

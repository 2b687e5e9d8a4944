package dev.tideway.compute.executor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.storage.table.StateTable;
import java.util.ArrayList;
import java.util.List;

/**
 * A Bloom filter over the keys a stateful executor has written to one of its state tables: when it
 * says a key was never written, the executor knows the table holds no row under that key without
 * reading it (a blind insert, or an empty join match). A "maybe" answer costs a state-table read,
 * so false positives cost time, never correctness. Deletes leave their bits set.
 *
 * <p>Size: a filter grows with its keys, as a scalable Bloom filter (Almeida et al., 2007): a layer
 * takes distinct keys until it holds one per {@value #BITS_PER_KEY} bits (about 0.03 % false
 * positives with four probes in one 64-byte block), then a layer four times larger is added; a key
 * is looked for in every layer. A fixed filter of 2^22 bits answered "maybe" for about one new key
 * in eight once a count held a million groups (Nexmark q5), and each such answer is a state-table
 * read through every SST.
 *
 * <p>Invariant: every key present in the table (committed or written by this executor since) was
 * {@link #add}ed. The executor builds the filter when its tables are initialised: empty for an
 * empty table, otherwise by scanning the table once (recovery), and drops it with the executor.
 *
 * <p>Confined to the executor's actor thread.
 */
final class KeyFilter {
  /** Bits per key at which a layer is full. */
  static final int BITS_PER_KEY = 32;

  /** Bits a key sets in its block. */
  static final int PROBES = 4;

  /**
   * The largest layer: 2^28 bits (32 MiB), full at 8M keys; it then takes keys on, its false
   * positives rising (reads, never wrong answers).
   */
  static final int MAX_LOG2_BITS = 28;

  /** Layers, oldest (smallest) first; only the last takes new keys. */
  private final List<Layer> layers = new ArrayList<>(4);

  /**
   * One fixed-size blocked Bloom filter: a key sets {@value #PROBES} bits inside one 64-byte block
   * (one cache line per lookup), the bits chosen by four 9-bit slices of the hash's low 36 bits,
   * the block by the bits above them.
   */
  private static final class Layer {
    final long[] bits;
    final int blockMask;
    final int bitMask;
    final int log2Bits;
    final long capacity;
    long keys;

    Layer(int log2Bits) {
      this.bits = new long[1 << (log2Bits - 6)];
      this.blockMask = log2Bits >= 9 ? (1 << (log2Bits - 9)) - 1 : 0;
      this.bitMask = log2Bits >= 9 ? 511 : (1 << log2Bits) - 1;
      this.log2Bits = log2Bits;
      this.capacity = (1L << log2Bits) / BITS_PER_KEY;
    }

    void set(long h) {
      int base = ((int) (h >>> 36) & blockMask) << 3;
      for (int p = 0; p < PROBES; p++) {
        int bit = (int) (h >>> (9 * p)) & bitMask;
        bits[base + (bit >>> 6)] |= 1L << bit;
      }
    }

    boolean isSet(long h) {
      int base = ((int) (h >>> 36) & blockMask) << 3;
      for (int p = 0; p < PROBES; p++) {
        int bit = (int) (h >>> (9 * p)) & bitMask;
        if ((bits[base + (bit >>> 6)] & (1L << bit)) == 0) {
          return false;
        }
      }
      return true;
    }
  }

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

  /**
   * A filter whose first layer has {@code 2^log2Bits} bits; below 2^9 (one block) it stays that
   * size and saturates, answering "maybe" for most keys (tests use it to exercise the read path).
   */
  KeyFilter(int log2Bits) {
    Checks.checkArgument(
        log2Bits >= 6 && log2Bits <= MAX_LOG2_BITS,
        "key filter size 2^%s out of [2^6, 2^%s]",
        log2Bits,
        MAX_LOG2_BITS);
    layers.add(new Layer(log2Bits));
  }

  /**
   * A filter of {@code 2^log2Bits} bits (first layer) over the first {@code keyColumns} columns of
   * every row {@code table} holds: how an executor rebuilds its filter when its tables are
   * initialised (recovery).
   */
  static KeyFilter ofTable(StateTable table, int log2Bits, int keyColumns) {
    KeyFilter f = new KeyFilter(log2Bits);
    int[] cols = new int[keyColumns];
    for (int k = 0; k < cols.length; k++) {
      cols[k] = k;
    }
    try (StateTable.CloseableRows rows = table.iterAll()) {
      while (rows.hasNext()) {
        f.add(rows.next().project(cols));
      }
    }
    return f;
  }

  void add(Row key) {
    long h = mix(key.hashCode());
    if (mayContain(h)) {
      return; // a key written again (or a false positive): the layers count distinct keys
    }
    Layer last = layers.get(layers.size() - 1);
    if (last.keys >= last.capacity && last.log2Bits >= 9 && last.log2Bits < MAX_LOG2_BITS) {
      last = new Layer(Math.min(MAX_LOG2_BITS, last.log2Bits + 2));
      layers.add(last);
    }
    last.set(h);
    last.keys++;
  }

  /** False when {@code key} was never added; true when it may have been. */
  boolean mayContain(Row key) {
    return mayContain(mix(key.hashCode()));
  }

  private boolean mayContain(long h) {
    for (int i = layers.size() - 1; i >= 0; i--) {
      Layer l = layers.get(i);
      if (l.isSet(h)) {
        return true;
      }
    }
    return false;
  }

  /** Bits over all layers (for tests of the growth). */
  long sizeBits() {
    long n = 0;
    for (Layer l : layers) {
      n += 1L << l.log2Bits;
    }
    return n;
  }

  /** SplitMix64's finalizer: spreads a 32-bit hash over two independent-looking halves. */
  private static long mix(int hash) {
    long z = hash * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}

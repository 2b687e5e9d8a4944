package dev.tideway.compute.executor.source;

/**
 * Stateless pseudo-random values as a pure function of a seed and a position (SplitMix64's
 * finaliser). Generators use it instead of a stateful random source so that the value of row or
 * event {@code n} can be recomputed from {@code n} alone, which is what lets a source restart at
 * any offset and emit identical rows.
 */
final class Mix {
  private Mix() {}

  /** A well-mixed 64-bit value of {@code x}. */
  static long mix64(long x) {
    long z = x + 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** The hash of (seed, position). */
  static long of(long seed, long position) {
    return mix64(seed * 0x632BE59BD9B4E019L + mix64(position));
  }

  /** Uniform in {@code [min, max]} (inclusive) from a hash. */
  static long between(long hash, long min, long max) {
    long range = max - min + 1;
    if (range <= 0) { // the full long range, or an overflowing one
      return hash;
    }
    return min + Long.remainderUnsigned(hash, range);
  }

  /** Uniform in {@code [0, 1)} from a hash. */
  static double unit(long hash) {
    return (hash >>> 11) * 0x1.0p-53;
  }
}

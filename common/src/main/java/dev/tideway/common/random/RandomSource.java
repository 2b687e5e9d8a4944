package dev.tideway.common.random;

import java.util.SplittableRandom;

/**
 * A seeded, replayable random source: the only randomness production code and tests may use ({@code
 * new Random()}, {@code Math.random()} and {@code ThreadLocalRandom} are banned by the boundary
 * tests). A test prints {@link #seed()} on failure, and the same seed replays the run.
 *
 * <p>Not thread-safe: give each thread its own source with {@link #split()}.
 */
public final class RandomSource {
  private final long seed;
  private final SplittableRandom random;

  private RandomSource(long seed, SplittableRandom random) {
    this.seed = seed;
    this.random = random;
  }

  /** A source replaying {@code seed}. */
  public static RandomSource seeded(long seed) {
    return new RandomSource(seed, new SplittableRandom(seed));
  }

  /**
   * A source seeded from the system property {@code tideway.seed} when set (to replay a failure),
   * otherwise from the clock's nanoseconds. Always print {@link #seed()} where a failure is
   * reported.
   */
  public static RandomSource fromPropertyOr(long fallbackSeed) {
    String prop = System.getProperty("tideway.seed");
    return seeded(prop != null ? Long.parseLong(prop.trim()) : fallbackSeed);
  }

  /** The seed that replays this source from its start. */
  public long seed() {
    return seed;
  }

  /** An independent source for another thread or component, itself deterministic. */
  public RandomSource split() {
    long childSeed = random.nextLong();
    return new RandomSource(childSeed, new SplittableRandom(childSeed));
  }

  public long nextLong() {
    return random.nextLong();
  }

  /** Uniform in {@code [0, bound)}. */
  public long nextLong(long bound) {
    return random.nextLong(bound);
  }

  /** Uniform in {@code [origin, bound)}. */
  public long nextLong(long origin, long bound) {
    return random.nextLong(origin, bound);
  }

  public int nextInt() {
    return random.nextInt();
  }

  /** Uniform in {@code [0, bound)}. */
  public int nextInt(int bound) {
    return random.nextInt(bound);
  }

  /** Uniform in {@code [origin, bound)}. */
  public int nextInt(int origin, int bound) {
    return random.nextInt(origin, bound);
  }

  public double nextDouble() {
    return random.nextDouble();
  }

  public boolean nextBoolean() {
    return random.nextBoolean();
  }

  /** True with probability {@code p}. */
  public boolean chance(double p) {
    return random.nextDouble() < p;
  }

  public void nextBytes(byte[] bytes) {
    random.nextBytes(bytes);
  }
}

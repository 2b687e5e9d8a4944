package dev.tideway.compute.executor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.row.Row;
import org.junit.jupiter.api.Test;

/**
 * The key filter grows with its keys: it never forgets a key, and its false positives stay rare
 * however many keys it took (each one costs the executor a state-table read).
 */
class KeyFilterTest {
  @Test
  void aMillionKeysInASmallFilterKeepFalsePositivesRareAndNoFalseNegatives() {
    KeyFilter f = new KeyFilter(16);
    long base = 1_700_000_000_000_000L; // q5-like keys: an id and a timestamp
    for (long i = 0; i < 1_000_000; i++) {
      f.add(Row.of(i, base));
    }
    for (long i = 0; i < 1_000_000; i++) {
      assertThat(f.mayContain(Row.of(i, base))).as("key %s", i).isTrue();
    }
    int maybe = 0;
    int probes = 200_000;
    for (long i = 0; i < probes; i++) {
      if (f.mayContain(Row.of(i, base + 2_000_000))) {
        maybe++;
      }
    }
    // each layer, when full, answers "maybe" for a few in ten thousand absent keys (each such
    // answer costs the executor a state read through every SST, about a millisecond)
    assertThat((double) maybe / probes).isLessThan(0.006); // 0.39 % measured over six layers
    assertThat(f.sizeBits()).isGreaterThan(1_000_000L * KeyFilter.BITS_PER_KEY / 2);
  }

  @Test
  void keysWrittenAgainDoNotGrowTheFilter() {
    KeyFilter f = new KeyFilter(16);
    for (int round = 0; round < 1000; round++) {
      for (long i = 0; i < 1000; i++) {
        f.add(Row.of(i)); // a few hot keys written a million times (q7's bids by price)
      }
    }
    assertThat(f.sizeBits()).isEqualTo(1L << 16);
  }

  @Test
  void aFilterWithFewKeysStaysAtItsFirstSize() {
    KeyFilter f = new KeyFilter(16);
    for (long i = 0; i < (1 << 16) / KeyFilter.BITS_PER_KEY; i++) {
      f.add(Row.of(i));
    }
    assertThat(f.sizeBits()).isEqualTo(1L << 16);
    assertThat(f.mayContain(Row.of(7L))).isTrue();
  }
}

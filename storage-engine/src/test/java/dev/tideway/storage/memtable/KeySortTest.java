package dev.tideway.storage.memtable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.random.RandomSource;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The packed-key sort orders distinct keys of one table exactly as unsigned byte order does, also
 * keys of different lengths, keys that are prefixes of others, and keys equal in their first 8
 * bytes after the table id, and keys equal in their first 16. Replay with {@code -Dtideway.seed=N}.
 */
class KeySortTest {
  @Test
  void ordersLikeUnsignedByteOrder() {
    RandomSource rnd = RandomSource.fromPropertyOr(11);
    for (int round = 0; round < 20; round++) {
      Map<String, Entry> distinct = new LinkedHashMap<>();
      int n = rnd.nextInt(1, 3000);
      for (int i = 0; i < n; i++) {
        byte[] pk = new byte[rnd.nextInt(0, 30)];
        for (int b = 0; b < pk.length; b++) {
          // few distinct byte values: many shared prefixes, many ties in the first 8 bytes
          pk[b] = (byte) (rnd.chance(0.5) ? 0 : rnd.chance(0.5) ? 0xFF : rnd.nextInt(256));
        }
        byte[] key = Keys.key(5, rnd.nextInt(3), pk);
        distinct.put(Arrays.toString(key), Entry.put(key, 1, new byte[0]));
      }
      List<Entry> expected = new ArrayList<>(distinct.values());
      expected.sort((a, b) -> Keys.compare(a.key(), b.key()));
      Entry[] sorted = KeySort.sort(distinct.values().toArray(new Entry[0]));
      assertThat(sorted)
          .as("seed %s round %s", rnd.seed(), round)
          .containsExactlyElementsOf(expected);
    }
  }

  /**
   * Keys sharing long prefixes (a join key of few values, then the row), of lengths around every
   * 16-byte boundary, with zero bytes where the padding of shorter keys could tie.
   */
  @Test
  void ordersKeysSharingLongPrefixes() {
    RandomSource rnd = RandomSource.fromPropertyOr(12);
    for (int round = 0; round < 20; round++) {
      Map<String, Entry> distinct = new LinkedHashMap<>();
      int n = rnd.nextInt(1, 5000);
      byte[][] prefixes = new byte[rnd.nextInt(1, 4)][];
      for (int p = 0; p < prefixes.length; p++) {
        prefixes[p] = new byte[rnd.nextInt(0, 40)];
        for (int b = 0; b < prefixes[p].length; b++) {
          prefixes[p][b] = (byte) (rnd.chance(0.3) ? 0 : rnd.nextInt(256));
        }
      }
      for (int i = 0; i < n; i++) {
        byte[] prefix = prefixes[rnd.nextInt(prefixes.length)];
        byte[] pk = Arrays.copyOf(prefix, prefix.length + rnd.nextInt(0, 20));
        for (int b = prefix.length; b < pk.length; b++) {
          pk[b] = (byte) (rnd.chance(0.5) ? 0 : rnd.nextInt(256));
        }
        byte[] key = Keys.key(5, rnd.nextInt(2), pk);
        distinct.put(Arrays.toString(key), Entry.put(key, 1, new byte[0]));
      }
      List<Entry> expected = new ArrayList<>(distinct.values());
      expected.sort((a, b) -> Keys.compare(a.key(), b.key()));
      Entry[] sorted = KeySort.sort(distinct.values().toArray(new Entry[0]));
      assertThat(sorted)
          .as("seed %s round %s", rnd.seed(), round)
          .containsExactlyElementsOf(expected);
    }
  }
}

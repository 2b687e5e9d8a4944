package dev.tideway.storage.memtable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.random.RandomSource;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The memtable (hash index, unsorted tail, sorted runs merged like a binary counter) reads exactly
 * like a sorted map of the last write per key: point gets, prefix and range scans interleaved with
 * writes (across buffer flushes and run merges), and the frozen batch. Replay with {@code
 * -Dtideway.seed=N}.
 */
class MemtableTest {
  private static final int TABLE = 7;

  @Test
  void readsMatchASortedMapOfLastWrites() {
    for (long seed = 1; seed <= 4; seed++) {
      RandomSource rnd = RandomSource.fromPropertyOr(seed);
      try {
        check(rnd, 1500 * (int) (1 + seed));
      } catch (AssertionError e) {
        throw new AssertionError("replay with -Dtideway.seed=" + rnd.seed(), e);
      }
    }
  }

  private static void check(RandomSource rnd, int writes) {
    Memtable mem = new Memtable(TABLE);
    TreeMap<byte[], Entry> model = new TreeMap<>(Keys.ORDER);
    long live = 0;
    int keySpace = 50 + rnd.nextInt(2000);
    for (int w = 0; w < writes; w++) {
      byte[] key = key(rnd.nextInt(keySpace));
      boolean delete = rnd.chance(0.2);
      byte[] value = delete ? null : new byte[] {(byte) w, (byte) (w >> 8)};
      int delta = delete ? -1 : rnd.nextInt(0, 2);
      mem.write(key, 100, delete, value, delta);
      model.put(key, new Entry(key, 100, delete, delete ? Entry.EMPTY : value));
      live += delta;
      if (rnd.chance(0.05)) {
        byte[] probe = key(rnd.nextInt(keySpace + 10));
        assertThat(mem.get(probe)).isEqualTo(model.get(probe));
      }
      if (rnd.chance(0.02)) {
        int a = rnd.nextInt(keySpace);
        int b = a + rnd.nextInt(keySpace / 4 + 1);
        KeyRange r = KeyRange.of(key(a), key(b));
        assertThat(mem.range(r)).containsExactlyElementsOf(sub(model, r));
        byte[] prefix = Keys.key(TABLE, a % 3, new byte[] {(byte) (a >> 8)});
        KeyRange p = KeyRange.prefix(prefix);
        assertThat(mem.range(p)).containsExactlyElementsOf(sub(model, p));
      }
    }
    assertThat(mem.range(KeyRange.ALL)).containsExactlyElementsOf(model.values());
    assertThat(mem.liveDelta()).isEqualTo(live);
    ImmutableMemtable frozen = mem.freeze(100);
    assertThat(frozen.size()).isEqualTo(model.size());
    assertThat(frozen.entries()).containsExactlyElementsOf(model.values());
    assertThat(frozen.liveDelta()).isEqualTo(live);
    for (Map.Entry<byte[], Entry> e : model.entrySet()) {
      assertThat(frozen.get(e.getKey())).isEqualTo(e.getValue());
    }
  }

  /** Keys spread over 3 vnodes with a 2-byte pk, so prefixes select several runs' slices. */
  private static byte[] key(int k) {
    return Keys.key(TABLE, k % 3, new byte[] {(byte) (k >> 8), (byte) k});
  }

  private static List<Entry> sub(TreeMap<byte[], Entry> model, KeyRange r) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : model.values()) {
      if ((r.start() == null || Keys.compare(e.key(), r.start()) >= 0)
          && (r.end() == null || Keys.compare(e.key(), r.end()) < 0)) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * Gets of keys past the greatest key of their vnode answer without probing the index: every key
   * written (the greatest of each vnode included) is still found, keys past it and in vnodes never
   * written (up to 65535) are absent.
   */
  @Test
  void keysPastTheirVnodesGreatestAreAbsentAndEveryWrittenKeyIsFound() {
    Memtable mem = new Memtable(TABLE);
    List<byte[]> written = new ArrayList<>();
    for (int pk = 0; pk < 2000; pk++) {
      int vnode = pk % 300;
      byte[] k = Keys.key(TABLE, vnode, new byte[] {(byte) (pk >> 8), (byte) pk});
      assertThat(mem.get(k)).isNull();
      mem.write(k, 100, pk % 7 == 0, new byte[] {(byte) pk}, 1);
      written.add(k);
    }
    ImmutableMemtable frozen = mem.freeze(100);
    for (byte[] k : written) {
      assertThat(frozen.get(k)).as("written %s", Keys.hex(k)).isNotNull();
    }
    assertThat(frozen.get(Keys.key(TABLE, 5, new byte[] {(byte) 0xFF, 0}))).isNull();
    assertThat(frozen.get(Keys.key(TABLE, 301, new byte[] {0}))).isNull();
    assertThat(frozen.get(Keys.key(TABLE, 65535, new byte[] {0}))).isNull();
  }

  @Test
  void sizeCountsEachKeyOnceAndEmptyMeansNoWritesAndNoDelta() {
    Memtable mem = new Memtable(TABLE);
    assertThat(mem.isEmpty()).isTrue();
    byte[] k = key(1);
    mem.write(k, 100, false, new byte[10], 1);
    long once = mem.bytes();
    mem.write(k, 100, false, new byte[10], 0);
    assertThat(mem.bytes()).isEqualTo(once);
    assertThat(mem.isEmpty()).isFalse();
    assertThat(mem.freeze(100).entries()).hasSize(1);
  }
}

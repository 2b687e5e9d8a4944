package dev.tideway.storage.memtable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.exec.Threads;
import dev.tideway.common.random.RandomSource;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A sealed memtable is sorted lazily and once: gets answer from the key index without sorting, the
 * first ordered read (or {@link ImmutableMemtable#sort}) sorts, and readers racing the sorter on
 * other threads all see the same key order and the same entries. Replay with {@code
 * -Dtideway.seed=N}.
 */
class ImmutableMemtableTest {
  private static final int TABLE = 9;

  @Test
  void getsDoNotSortAndTheFirstRangeReadSortsInKeyOrder() throws IOException {
    RandomSource rnd = RandomSource.fromPropertyOr(11);
    TreeMap<byte[], Entry> model = new TreeMap<>(Keys.ORDER);
    ImmutableMemtable frozen = frozen(rnd, 5_000, model);
    try {
      for (Entry e : model.values()) {
        assertThat(frozen.get(e.key())).isEqualTo(e);
      }
      assertThat(frozen.get(key(1_000_000))).isNull();
      assertThat(frozen.isSorted()).as("point gets must not sort").isFalse();
      assertThat(frozen.size()).isEqualTo(model.size());
      assertThat(frozen.isSorted()).isFalse();

      byte[] from = key(100);
      byte[] to = key(3_000);
      List<Entry> expected = new ArrayList<>(model.subMap(from, to).values());
      assertThat(drain(frozen.iterator(KeyRange.of(from, to)))).containsExactlyElementsOf(expected);
      assertThat(frozen.isSorted()).isTrue();
      assertThat(drain(frozen.iterator(KeyRange.ALL))).containsExactlyElementsOf(model.values());
    } catch (AssertionError e) {
      throw new AssertionError("replay with -Dtideway.seed=" + rnd.seed(), e);
    }
  }

  @Test
  void readersRacingTheSorterAllSeeOneKeyOrder() throws Exception {
    ExecutorService pool = Threads.fixedPool("imm-test", 4);
    try {
      for (long seed = 1; seed <= 20; seed++) {
        RandomSource rnd = RandomSource.fromPropertyOr(seed);
        TreeMap<byte[], Entry> model = new TreeMap<>(Keys.ORDER);
        ImmutableMemtable frozen = frozen(rnd, 20_000, model);
        List<Entry> all = new ArrayList<>(model.values());
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> tasks = new ArrayList<>();
        tasks.add(pool.submit(() -> await(go, frozen::sort)));
        tasks.add(pool.submit(() -> await(go, () -> assertScan(frozen, all))));
        tasks.add(pool.submit(() -> await(go, () -> assertScan(frozen, all))));
        tasks.add(
            pool.submit(
                () ->
                    await(
                        go,
                        () -> {
                          for (Entry e : all) {
                            assertThat(frozen.get(e.key())).isEqualTo(e);
                          }
                        })));
        go.countDown();
        try {
          for (Future<?> t : tasks) {
            t.get(30, TimeUnit.SECONDS);
          }
        } catch (Exception e) {
          throw new AssertionError("replay with -Dtideway.seed=" + rnd.seed(), e);
        }
        assertThat(frozen.isSorted()).isTrue();
        assertThat(frozen.entries()).containsExactlyElementsOf(all);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static void await(CountDownLatch go, Runnable r) {
    try {
      go.await();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    r.run();
  }

  private static void assertScan(ImmutableMemtable m, List<Entry> expected) {
    try {
      assertThat(drain(m.iterator(KeyRange.ALL))).containsExactlyElementsOf(expected);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /** A frozen memtable of {@code writes} random writes; {@code model} gets the last per key. */
  private static ImmutableMemtable frozen(
      RandomSource rnd, int writes, TreeMap<byte[], Entry> model) {
    Memtable mem = new Memtable(TABLE);
    int keySpace = writes / 2 + 1;
    for (int w = 0; w < writes; w++) {
      byte[] k = key(rnd.nextInt(keySpace));
      boolean delete = rnd.chance(0.1);
      byte[] value = delete ? null : new byte[] {(byte) w};
      mem.write(k, 100, delete, value, 0);
      model.put(k, new Entry(k, 100, delete, delete ? Entry.EMPTY : value));
    }
    return mem.freeze(100);
  }

  private static byte[] key(int k) {
    return Keys.key(TABLE, k % 5, new byte[] {(byte) (k >> 16), (byte) (k >> 8), (byte) k});
  }

  private static List<Entry> drain(EntryIterator it) throws IOException {
    List<Entry> out = new ArrayList<>();
    while (it.next()) {
      out.add(new Entry(it.key(), it.epoch(), it.isDelete(), it.value()));
    }
    return out;
  }
}

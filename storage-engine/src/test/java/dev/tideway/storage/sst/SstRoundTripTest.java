package dev.tideway.storage.sst;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.TableStats;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import dev.tideway.storage.objectstore.S3Fixture;
import dev.tideway.storage.objectstore.S3ObjectStore;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SstRoundTripTest {
  private final InMemoryObjectStore store = new InMemoryObjectStore();
  private final BlockCache cache = new BlockCache(64 << 20);

  static byte[] key(int table, long pk) {
    return Keys.key(table, (int) (pk % 256), ByteBuffer.allocate(8).putLong(pk).array());
  }

  /** Rows of two tables; every third key has two versions, every tenth newest is a tombstone. */
  private List<Entry> rows(int n) {
    List<Entry> out = new ArrayList<>();
    for (int t = 1; t <= 2; t++) {
      List<byte[]> keys = new ArrayList<>();
      for (long pk = 0; pk < n; pk++) {
        keys.add(key(t, pk));
      }
      keys.sort(Keys.ORDER);
      int i = 0;
      for (byte[] k : keys) {
        if (i % 10 == 0) {
          out.add(Entry.tombstone(k, Epochs.of(20)));
        } else {
          out.add(Entry.put(k, Epochs.of(20), ("v20-" + i).getBytes()));
        }
        if (i % 3 == 0) {
          out.add(Entry.put(k, Epochs.of(10), ("v10-" + i).getBytes()));
        }
        i++;
      }
    }
    return out;
  }

  private SstInfo write(long id, List<Entry> rows) {
    try (SstWriter w = SstWriter.create(id, store, SstWriterOptions.DEFAULT, rows.size())) {
      for (Entry e : rows) {
        w.add(e.key(), e.epoch(), e.delete(), e.value());
      }
      return w.finish();
    }
  }

  /**
   * A get over several SSTs hashes the key once ({@link SstReader#bloomHash}); that hash must be
   * the one Parquet's filters were built with, or gets would miss keys the SST holds.
   */
  @Test
  void onePrecomputedBloomHashFindsEveryKeyLikeParquetsOwnHash() throws Exception {
    BlockSplitBloomFilter parquets = new BlockSplitBloomFilter(1024);
    List<Entry> rows = rows(2000);
    for (int i = 0; i < rows.size(); i += 13) {
      byte[] k = rows.get(i).key();
      assertThat(SstReader.bloomHash(k)).isEqualTo(parquets.hash(Binary.fromConstantByteArray(k)));
    }
    SstInfo info = write(9, rows);
    try (SstReader r = SstReader.open(store, info, cache, true)) {
      for (Entry e : rows) {
        long at = Epochs.visibleUpTo(e.epoch());
        assertThat(r.get(e.key(), SstReader.bloomHash(e.key()), at)).isEqualTo(r.get(e.key(), at));
      }
      byte[] absent = key(1, 1_000_000);
      assertThat(r.get(absent, SstReader.bloomHash(absent), Long.MAX_VALUE)).isNull();
    }
  }

  @Test
  void writesStatsAndReadsBackByGetAndScan() throws Exception {
    List<Entry> rows = rows(3000);
    SstInfo info = write(7, rows);
    assertThat(info.rowCount()).isEqualTo(rows.size());
    assertThat(info.tableStats()).containsOnlyKeys(1, 2);
    long t1 = rows.stream().filter(e -> Keys.tableId(e.key()) == 1).count();
    assertThat(info.tableStats().get(1).totalKeyCount()).isEqualTo(t1);
    assertThat(info.tombstoneCount()).isEqualTo(rows.stream().filter(Entry::delete).count());
    try (SstReader r = SstReader.open(store, info, cache, true)) {
      assertThat(r.pageCount()).isGreaterThan(10);
      for (int i = 0; i < rows.size(); i += 7) {
        Entry e = rows.get(i);
        assertThat(r.get(e.key(), Epochs.visibleUpTo(e.epoch()))).isEqualTo(e);
      }
      Entry old = rows.get(1);
      assertThat(old.epoch()).isEqualTo(Epochs.of(10));
      assertThat(r.get(old.key(), Epochs.visibleUpTo(Epochs.of(15)))).isEqualTo(old);
      assertThat(r.get(old.key(), Epochs.visibleUpTo(Epochs.of(5)))).isNull();
      assertThat(r.get(key(3, 1), Long.MAX_VALUE)).isNull();
      List<Entry> all = drain(r.iterator(KeyRange.ALL));
      assertThat(all).isEqualTo(rows);
      List<Entry> t2 = drain(r.iterator(KeyRange.table(2)));
      assertThat(t2).isEqualTo(rows.stream().filter(e -> Keys.tableId(e.key()) == 2).toList());
      byte[] lo = rows.get(1000).key();
      byte[] hi = rows.get(2000).key();
      assertThat(drain(r.iterator(KeyRange.of(lo, hi))))
          .isEqualTo(rows.stream().filter(e -> KeyRange.of(lo, hi).contains(e.key())).toList());
    }
  }

  /**
   * Narrow ranges (a few pages: scanned block by block through the cache) and wide ones (streamed
   * by row group) return exactly the rows in range, also at page edges and when read twice (the
   * second time from cached blocks).
   */
  @Test
  void narrowAndWideRangeScansMatchTheRowsInRange() throws Exception {
    List<Entry> rows = rows(3000);
    SstInfo info = write(8, rows);
    BlockCache blocks = new BlockCache(64 << 20);
    try (SstReader r = SstReader.open(store, info, blocks, true)) {
      int[][] spans = {{0, 1}, {255, 257}, {256, 600}, {1000, 1001}, {10, 3000}, {4000, 6500}};
      for (int[] span : spans) {
        byte[] lo = rows.get(span[0]).key();
        byte[] hi = rows.get(Math.min(span[1], rows.size() - 1)).key();
        KeyRange range = KeyRange.of(lo, hi);
        List<Entry> expected = rows.stream().filter(e -> range.contains(e.key())).toList();
        assertThat(drain(r.iterator(range))).as("range %s", range).isEqualTo(expected);
        assertThat(drain(r.iterator(range))).as("again %s", range).isEqualTo(expected);
      }
      byte[] prefix = Keys.vnodePrefix(1, 17);
      KeyRange vnode = KeyRange.prefix(prefix);
      assertThat(drain(r.iterator(vnode)))
          .isEqualTo(rows.stream().filter(e -> vnode.contains(e.key())).toList());
      KeyRange none = KeyRange.prefix(Keys.vnodePrefix(3, 1));
      assertThat(drain(r.iterator(none))).isEmpty();
    }
    assertThat(blocks.hits()).isPositive();
  }

  static List<Entry> drain(EntryIterator it) throws Exception {
    List<Entry> out = new ArrayList<>();
    while (it.next()) {
      out.add(new Entry(it.key(), it.epoch(), it.isDelete(), it.value()));
    }
    return out;
  }

  @Test
  void corruptedBytesFailLoudlyNamingTheFile() throws Exception {
    List<Entry> rows = rows(2000);
    SstInfo info = write(9, rows);
    for (long offset : new long[] {100, info.fileSize() / 2, -20}) {
      InMemoryObjectStore copy = new InMemoryObjectStore();
      copy.put(info.objectPath(), store.read(info.objectPath()));
      copy.corrupt(info.objectPath(), offset);
      assertThatThrownBy(() -> SstReader.open(copy, info, new BlockCache(1 << 20), true))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining(info.objectPath())
          .hasMessageContaining("corrupted")
          .matches(e -> ((StorageException) e).reason() == StorageException.Reason.CORRUPTED);
    }
  }

  @Test
  void corruptedPageWithoutFileChecksumStillNeverServesWrongData() throws Exception {
    List<Entry> rows = rows(2000);
    SstInfo info = write(11, rows);
    store.corrupt(info.objectPath(), 200);
    // Skipping the whole-file check, the page CRC catches the damage on read.
    try (SstReader r = SstReader.open(store, info, new BlockCache(1 << 20), false)) {
      assertThatThrownBy(() -> drain(r.iterator(KeyRange.ALL)))
          .isInstanceOf(StorageException.class)
          .hasMessageContaining(info.objectPath());
    }
  }

  @Test
  void statsOfEntriesAddUp() {
    assertThat(TableStats.ofEntry(10, 5)).isEqualTo(new TableStats(1, 18, 5, 0));
  }

  /**
   * Point gets from several threads at once on one SST find every key it holds. Parquet's bloom
   * filter probe keeps its mask in a shared field; unguarded, concurrent probes answered "absent"
   * for present keys now and then (a join then missed a committed row of its state).
   */
  @Test
  void concurrentPointGetsFindEveryKey() throws Exception {
    List<Entry> rows = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (long pk = 0; pk < 20_000; pk++) {
      keys.add(key(1, pk));
    }
    keys.sort(Keys.ORDER);
    for (byte[] k : keys) {
      rows.add(Entry.put(k, Epochs.of(10), k));
    }
    SstInfo info = write(9, rows);
    try (SstReader r = SstReader.open(store, info, cache, true)) {
      int threads = 4;
      long[] misses = new long[threads];
      List<Thread> all = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int me = t;
        Thread th =
            new Thread(
                () -> {
                  for (int round = 0; round < 10; round++) {
                    for (int i = me; i < keys.size(); i += 1 + me) {
                      if (r.get(keys.get(i), Epochs.visibleUpTo(Epochs.of(10))) == null) {
                        misses[me]++;
                      }
                    }
                  }
                });
        all.add(th);
        th.start();
      }
      for (Thread th : all) {
        th.join();
      }
      assertThat(misses).as("gets that missed a key the SST holds, per thread").containsOnly(0L);
    }
  }

  /**
   * A reader thread interrupted mid-read (an actor dropped at a reset) has NIO close the channel
   * under it, and Parquet then caches the row group's page index store as empty: every later read
   * of that row group failed with "corrupted: no offset index" on the shared reader, for every
   * actor of the node until it restarted (seen in the multi-process cluster test). The interrupted
   * read must fail as a retryable object-store error, and the reader must go on serving every key.
   */
  @Test
  void anInterruptedReadNeitherReportsCorruptionNorPoisonsTheReader(@TempDir Path dir)
      throws Exception {
    LocalFsObjectStore local = new LocalFsObjectStore(dir);
    List<byte[]> keys = new ArrayList<>();
    for (long pk = 0; pk < 20_000; pk++) {
      keys.add(key(1, pk));
    }
    keys.sort(Keys.ORDER);
    SstInfo info;
    try (SstWriter w = SstWriter.create(21, local, SstWriterOptions.DEFAULT, keys.size())) {
      for (byte[] k : keys) {
        w.add(k, Epochs.of(10), false, k);
      }
      info = w.finish();
    }
    long at = Epochs.visibleUpTo(Epochs.of(10));
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> SstReader.open(local, info, new BlockCache(1 << 20), true))
          .as("an interrupted open is no corruption")
          .matches(e -> ((StorageException) e).reason() == StorageException.Reason.OBJECT_STORE);
    } finally {
      Thread.interrupted();
    }
    try (SstReader r = SstReader.open(local, info, new BlockCache(1 << 20), false)) {
      assertThat(r.pageCount())
          .as("pages, so a point get reads one page of a row group")
          .isGreaterThan(8);
      Thread.currentThread().interrupt();
      try {
        assertThatThrownBy(() -> r.get(keys.get(keys.size() / 2), at))
            .isInstanceOf(StorageException.class)
            .matches(e -> ((StorageException) e).reason() == StorageException.Reason.OBJECT_STORE)
            .hasMessageContaining("interrupted");
      } finally {
        Thread.interrupted();
      }
      for (byte[] k : keys) {
        assertThat(r.get(k, at)).as("every key after the interrupted read").isNotNull();
      }
    }
  }

  /**
   * An SST on S3 whose store stops answering: the read fails as a failure of the store (retryable,
   * OBJECT_STORE), never as a corrupted file, which would be reported as damaged data.
   */
  @Test
  void anUnreachableStoreIsAStoreFailureNotCorruption(@TempDir Path dir) throws Exception {
    List<byte[]> keys = new ArrayList<>();
    for (long pk = 0; pk < 20_000; pk++) {
      keys.add(key(1, pk));
    }
    keys.sort(Keys.ORDER);
    S3Fixture s3 = new S3Fixture(dir);
    try (S3ObjectStore remote = s3.open("sst-test")) {
      SstInfo info;
      try (SstWriter w = SstWriter.create(31, remote, SstWriterOptions.DEFAULT, keys.size())) {
        for (byte[] k : keys) {
          w.add(k, Epochs.of(10), false, k);
        }
        info = w.finish();
      }
      long at = Epochs.visibleUpTo(Epochs.of(10));
      try (SstReader r = SstReader.open(remote, info, new BlockCache(1 << 20), true)) {
        assertThat(r.get(keys.get(0), at)).isNotNull();
        s3.close();
        assertThatThrownBy(() -> r.get(keys.get(keys.size() - 1), at))
            .isInstanceOf(StorageException.class)
            .matches(e -> ((StorageException) e).reason() == StorageException.Reason.OBJECT_STORE)
            .hasMessageContaining("failed");
      }
      assertThatThrownBy(() -> SstReader.open(remote, info, new BlockCache(1 << 20), true))
          .matches(e -> ((StorageException) e).reason() == StorageException.Reason.OBJECT_STORE);
    } finally {
      s3.close();
    }
  }
}

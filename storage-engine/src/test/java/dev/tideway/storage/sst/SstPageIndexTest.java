package dev.tideway.storage.sst;

import static dev.tideway.storage.sst.SstRoundTripTest.drain;
import static dev.tideway.storage.sst.SstRoundTripTest.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.TableStats;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an SST finds a key's page: the footer's {@link PageFences} (format 2), whose page bounds are
 * exact only where Parquet cuts pages at the fence interval, and format 1's column index, still
 * read. A get must find every key and a scan every row whatever the page and row group cuts.
 */
class SstPageIndexTest {
  private final InMemoryObjectStore store = new InMemoryObjectStore();

  /**
   * Values from empty to 60 KB cut pages by bytes (at Parquet's first size check, after 100 rows)
   * before 256 rows, row groups of 4 MB end anywhere, keys have up to five versions: pages and row
   * groups end between fences, so their max keys are upper bounds. Every key and version is found,
   * keys between them are absent, and random ranges scan exactly their rows.
   */
  @Test
  void everyKeyIsFoundWhenPagesAndRowGroupsEndBetweenFences() throws Exception {
    Random rnd = new Random(42);
    List<Entry> rows = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (long pk = 0; pk < 2000; pk += 2) {
      keys.add(key(1, pk));
    }
    keys.sort(Keys.ORDER);
    for (byte[] k : keys) {
      int versions = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 5 : 1);
      for (int v = versions; v >= 1; v--) {
        byte[] value = new byte[rnd.nextBoolean() ? rnd.nextInt(60_000) : rnd.nextInt(40)];
        rnd.nextBytes(value);
        rows.add(Entry.put(k, Epochs.of(v * 10L), value));
      }
    }
    SstWriterOptions o =
        new SstWriterOptions(CompressionCodecName.ZSTD, 4 << 20, 256, 0.01, 400_000);
    SstInfo info;
    try (SstWriter w = SstWriter.create(3, store, o, rows.size())) {
      for (Entry e : rows) {
        w.add(e.key(), e.epoch(), e.delete(), e.value());
      }
      info = w.finish();
    }
    try (SstReader r = SstReader.open(store, info, new BlockCache(64 << 20), true)) {
      assertThat(r.pageCount()).as("pages cut by bytes").isGreaterThan(rows.size() / 256 + 2);
      Map<String, Entry> newest = new HashMap<>();
      for (Entry e : rows) {
        newest.putIfAbsent(Keys.hex(e.key()), e);
        assertThat(r.get(e.key(), e.epoch())).as("version %s", e).isEqualTo(e);
      }
      for (Entry e : newest.values()) {
        assertThat(r.get(e.key(), Long.MAX_VALUE)).isEqualTo(e);
        byte[] between = Arrays.copyOf(e.key(), e.key().length + 1);
        assertThat(r.get(between, Long.MAX_VALUE)).isNull();
        assertThat(r.get(e.key(), Epochs.of(1))).isNull();
      }
      for (int i = 0; i < 40; i++) {
        int a = rnd.nextInt(rows.size());
        int b = Math.min(rows.size() - 1, a + rnd.nextInt(i % 2 == 0 ? 300 : 5000));
        KeyRange range = KeyRange.of(rows.get(a).key(), rows.get(b).key());
        assertThat(drain(r.iterator(range)))
            .as("range %s..%s", a, b)
            .isEqualTo(rows.stream().filter(e -> range.contains(e.key())).toList());
      }
      assertThat(drain(r.iterator(KeyRange.ALL))).isEqualTo(rows);
    }
  }

  /**
   * A format 1 SST (written by the previous build: page max keys in Parquet's column index, 64-row
   * pages, 4 KB row groups) still serves every key and a full scan with its row checksum.
   */
  @Test
  void formatOneFilesStillRead(@TempDir Path dir) throws Exception {
    Path file = dir.resolve(SstInfo.objectPath(1));
    Files.createDirectories(file.getParent());
    try (InputStream in =
        SstPageIndexTest.class.getResourceAsStream("format1/" + SstInfo.objectPath(1))) {
      Files.copy(in, file);
    }
    TableStats perTable = new TableStats(800, 17600, 5043, 0);
    SstInfo info =
        new SstInfo(
            1,
            21398,
            -1076244222,
            SstFormat.unhex("0000000100000000000000000000"),
            SstFormat.unhex("0000000200ff00000000000001ff"),
            Epochs.of(10),
            Epochs.of(20),
            1600,
            120,
            Map.of(1, perTable, 2, perTable));
    List<Entry> rows = formatOneRows();
    try (SstReader r =
        SstReader.open(new LocalFsObjectStore(dir), info, new BlockCache(1 << 20), true)) {
      for (Entry e : rows) {
        assertThat(r.get(e.key(), e.epoch())).as("version %s", e).isEqualTo(e);
      }
      assertThat(r.get(key(1, 600), Long.MAX_VALUE)).isNull();
      assertThat(drain(r.iterator(KeyRange.ALL))).isEqualTo(rows);
      assertThat(r.lastKeyInSegment(key(1, 1))).as("format 1 records no segments").isNull();
    }
  }

  /** The rows of the format 1 file: two tables, every third key two versions, tombstones. */
  private static List<Entry> formatOneRows() {
    List<Entry> out = new ArrayList<>();
    for (int t = 1; t <= 2; t++) {
      List<byte[]> keys = new ArrayList<>();
      for (long pk = 0; pk < 600; pk++) {
        keys.add(key(t, pk));
      }
      keys.sort(Keys.ORDER);
      int i = 0;
      for (byte[] k : keys) {
        out.add(
            i % 10 == 0
                ? Entry.tombstone(k, Epochs.of(20))
                : Entry.put(k, Epochs.of(20), ("v20-" + i).getBytes()));
        if (i % 3 == 0) {
          out.add(Entry.put(k, Epochs.of(10), ("v10-" + i).getBytes()));
        }
        i++;
      }
    }
    return out;
  }

  /** The footer names the last key of each table vnode; an absent vnode has none. */
  @Test
  void lastKeyOfEachVnodeIsInTheFooter() throws Exception {
    List<Entry> rows = new ArrayList<>();
    List<byte[]> keys = new ArrayList<>();
    for (long pk = 0; pk < 3000; pk++) {
      keys.add(key(1, pk));
      keys.add(key(2, pk * 7));
    }
    keys.sort(Keys.ORDER);
    Map<String, byte[]> lastOf = new HashMap<>();
    for (byte[] k : keys) {
      rows.add(Entry.put(k, Epochs.of(3), new byte[] {1}));
      lastOf.put(Keys.hex(Arrays.copyOf(k, Keys.PREFIX_LEN)), k);
    }
    SstInfo info;
    try (SstWriter w = SstWriter.create(4, store, SstWriterOptions.DEFAULT, rows.size())) {
      for (Entry e : rows) {
        w.add(e.key(), e.epoch(), e.delete(), e.value());
      }
      info = w.finish();
    }
    try (SstReader r = SstReader.open(store, info, new BlockCache(1 << 20), true)) {
      for (byte[] k : keys) {
        assertThat(r.lastKeyInSegment(k))
            .isEqualTo(lastOf.get(Keys.hex(Arrays.copyOf(k, Keys.PREFIX_LEN))));
      }
      assertThat(r.lastKeyInSegment(key(3, 1))).isSameAs(SstReader.NO_KEY_IN_SEGMENT);
      assertThat(lastOf).hasSize(512);
    }
  }

  @Test
  void fencesRoundTripWithSharedPrefixesAndEqualKeys() {
    PageFences.Builder b = new PageFences.Builder(2);
    byte[][] keys = {
      {1, 2, 3}, {1, 2, 3}, {1, 2, 4}, {1, 2, 4}, {1, 2, 4, 0}, {9}, {9}, {9, 9, 9}, {10}
    };
    for (byte[] k : keys) {
      b.add(k);
    }
    byte[][] fences = PageFences.decode(b.finish());
    assertThat(fences).isDeepEqualTo(new byte[][] {keys[1], keys[3], keys[5], keys[7], keys[8]});
  }

  @Test
  void malformedFencesAreRefused() {
    assertThatThrownBy(() -> PageFences.decode("BQ=="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("page fences");
    assertThatThrownBy(() -> PageFences.decode("AAUB"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("malformed page fences");
  }
}

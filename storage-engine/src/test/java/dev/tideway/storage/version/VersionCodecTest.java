package dev.tideway.storage.version;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.TableStats;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The persisted version format round-trips, detects damage, and still decodes the golden files of
 * format 1 (regenerate only for a new format, with -Dtideway.writeGolden=DIR).
 */
class VersionCodecTest {
  static SstInfo sst(long id, int table, long epoch) {
    return new SstInfo(
        id,
        1000 + id,
        (int) (0xABCD0000L + id),
        Keys.key(table, 0, new byte[] {1}),
        Keys.key(table, 3, new byte[] {9}),
        Epochs.of(epoch),
        Epochs.of(epoch) + 2,
        10,
        1,
        Map.of(table, new TableStats(10, 250, 900, 0)));
  }

  static VersionDelta commitDelta() {
    return new VersionDelta(
        1,
        VersionDelta.Kind.COMMIT,
        Epochs.of(5),
        0,
        List.of(new VersionDelta.LevelChange(0, List.of(), List.of(sst(7, 1, 5), sst(8, 2, 5)))),
        Map.of(1, new TableStats(10, 250, 900, 8), 2, new TableStats(10, 250, 900, -1)),
        Map.of(2, Epochs.of(4)),
        8);
  }

  static Version expectedVersion() {
    return commitDelta().apply(Version.empty());
  }

  @Test
  void roundTripsVersionsAndDeltas() {
    Version v = expectedVersion();
    assertThat(VersionCodec.decodeVersion(VersionCodec.encode(v), "test")).isEqualTo(v);
    assertThat(VersionCodec.decodeDelta(VersionCodec.encode(commitDelta()), "test"))
        .isEqualTo(commitDelta());
    assertThat(v.stats(1).liveRowCount()).isEqualTo(8);
    assertThat(v.level(0).ssts()).extracting(SstInfo::id).containsExactly(7L, 8L);
  }

  @Test
  void dropTablesDeltasRoundTripAndStripTheTablesStatsAndWholeSsts() {
    Version v = expectedVersion();
    VersionDelta drop =
        new VersionDelta(
            2,
            VersionDelta.Kind.DROP_TABLES,
            v.maxCommittedEpoch(),
            v.safeEpoch(),
            List.of(new VersionDelta.LevelChange(0, List.of(8L), List.of())),
            Map.of(),
            Map.of(),
            v.maxSstId(),
            java.util.Set.of(2));
    assertThat(VersionCodec.decodeDelta(VersionCodec.encode(drop), "test")).isEqualTo(drop);
    Version after = drop.apply(v);
    assertThat(after.droppedTables()).containsExactly(2);
    assertThat(after.tableStats()).containsOnlyKeys(1);
    assertThat(after.changeLogs()).doesNotContainKey(2);
    assertThat(after.sstIds()).containsExactly(7L);
    assertThat(VersionCodec.decodeVersion(VersionCodec.encode(after), "test")).isEqualTo(after);
    // a later delta that still counts the dropped table cannot bring its stats back
    VersionDelta late =
        new VersionDelta(
            3,
            VersionDelta.Kind.COMMIT,
            Epochs.of(6),
            0,
            List.of(),
            Map.of(2, new TableStats(1, 1, 1, 1)),
            Map.of(),
            8);
    assertThat(late.apply(after).tableStats()).containsOnlyKeys(1);
  }

  @Test
  void detectsDamageNamingTheObject() {
    byte[] b = VersionCodec.encode(commitDelta());
    b[20] ^= 1;
    assertThatThrownBy(() -> VersionCodec.decodeDelta(b, "version delta version/delta/1"))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("version/delta/1")
        .hasMessageContaining("checksum");
  }

  @Test
  void readsFormatOneGoldenFiles() throws Exception {
    String out = System.getProperty("tideway.writeGolden");
    if (out != null) {
      Files.write(Path.of(out, "version-v1.bin"), VersionCodec.encode(expectedVersion()));
      Files.write(Path.of(out, "delta-v1.bin"), VersionCodec.encode(commitDelta()));
    }
    assertThat(VersionCodec.decodeVersion(resource("version-v1.bin"), "golden"))
        .isEqualTo(expectedVersion());
    assertThat(VersionCodec.decodeDelta(resource("delta-v1.bin"), "golden"))
        .isEqualTo(commitDelta());
  }

  private static byte[] resource(String name) throws Exception {
    try (InputStream in = VersionCodecTest.class.getResourceAsStream("/golden/" + name)) {
      assertThat(in).as("golden file %s", name).isNotNull();
      return in.readAllBytes();
    }
  }
}

package dev.tideway.meta.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.NextId;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.RecordKind;
import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.catalog.SystemParams;
import dev.tideway.protocol.catalog.TaggedWriter;
import dev.tideway.protocol.catalog.VersionPointer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Format compatibility: every released metadata format is kept as a golden file under {@code
 * golden/v1/}; this release must decode each to the same value and encode the same value to the
 * same bytes. To add a format version, write the new golden files next to the old ones (never
 * replace them): {@code -Dtideway.golden.write=DIR} writes the current encodings into DIR.
 */
class MetadataGoldenTest {
  record Case(String file, Object value, byte[] encoded, Function<byte[], Object> decode) {}

  static Stream<Arguments> cases() {
    return Stream.of(
            new Case(
                "params.bin",
                MetadataSamples.PARAMS,
                MetadataSamples.PARAMS.encode(),
                SystemParams::decode),
            new Case(
                "catalog-object.bin",
                MetadataSamples.MV,
                MetadataSamples.MV.encode(),
                CatalogObject::decode),
            new Case(
                "catalog-source.bin",
                MetadataSamples.SOURCE,
                MetadataSamples.SOURCE.encode(),
                CatalogObject::decode),
            new Case(
                "catalog-object-dist.bin",
                MetadataSamples.MV_ON_SOURCE,
                MetadataSamples.MV_ON_SOURCE.encode(),
                CatalogObject::decode),
            new Case(
                "job.bin", MetadataSamples.JOB, MetadataSamples.JOB.encode(), JobRecord::decode),
            new Case(
                "fragment-graph.bin",
                MetadataSamples.GRAPH,
                MetadataSamples.GRAPH.encode(),
                FragmentGraph::decode),
            new Case(
                "version-pointer.bin",
                MetadataSamples.POINTER,
                MetadataSamples.POINTER.encode(),
                VersionPointer::decode),
            new Case(
                "node-info.bin",
                MetadataSamples.NODE,
                MetadataSamples.NODE.encode(),
                NodeInfo::decode),
            new Case(
                "leader-info.bin",
                MetadataSamples.LEADER,
                MetadataSamples.LEADER.encode(),
                LeaderInfo::decode),
            new Case(
                "next-id.bin",
                MetadataSamples.NEXT_ID,
                MetadataSamples.NEXT_ID.encode(),
                NextId::decode),
            new Case(
                "recovery-log.bin",
                MetadataSamples.RECOVERIES,
                MetadataSamples.RECOVERIES.encode(),
                RecoveryLog::decode),
            new Case(
                "backfill-history.bin",
                MetadataSamples.BACKFILLS,
                MetadataSamples.BACKFILLS.encode(),
                BackfillHistory::decode))
        .map(c -> Arguments.of(c.file(), c));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void goldenV1DecodesToTheSameValueAndReencodesToTheSameBytes(String file, Case c)
      throws IOException {
    String dir = System.getProperty("tideway.golden.write");
    if (dir != null) {
      Files.createDirectories(Path.of(dir));
      Files.write(Path.of(dir, file), c.encoded());
    }
    byte[] golden;
    try (InputStream in = getClass().getResourceAsStream("/golden/v1/" + file)) {
      assertThat(in).as("golden file golden/v1/%s", file).isNotNull();
      golden = in.readAllBytes();
    }
    Object decoded = c.decode().apply(golden);
    if (decoded instanceof FragmentGraph g) {
      assertThat(g.fragments()).isEqualTo(MetadataSamples.GRAPH.fragments());
      assertThat(g.actors()).isEqualTo(MetadataSamples.GRAPH.actors());
    } else {
      assertThat(decoded).isEqualTo(c.value());
    }
    assertThat(c.encoded())
        .as("encoding of %s changed: add a new format version", file)
        .isEqualTo(golden);
  }

  @Test
  void aV1CatalogObjectWithoutTheNewFieldsDecodesWithEmptyValues() throws IOException {
    byte[] golden;
    try (InputStream in = getClass().getResourceAsStream("/golden/v1/catalog-object.bin")) {
      golden = in.readAllBytes();
    }
    CatalogObject o = CatalogObject.decode(golden);
    assertThat(o.properties()).isEmpty();
    assertThat(o.distributionKey()).isEmpty();
    assertThat(o.dependsOn()).isEmpty();
    assertThat(o.catalogOnly()).isFalse();
  }

  @Test
  void unknownFieldsAreSkippedAndAbsentFieldsTakeDefaults() {
    byte[] withExtra =
        TaggedWriter.record(RecordKind.SYSTEM_PARAMS, 1)
            .putLong(SystemParams.FIELD_BARRIER_INTERVAL_MS, 50)
            .putString(999, "a field from a newer release")
            .toBytes();
    SystemParams p = SystemParams.decode(withExtra);
    assertThat(p.barrierIntervalMs()).isEqualTo(50);
    assertThat(p.checkpointFrequency()).isEqualTo(SystemParams.DEFAULTS.checkpointFrequency());
  }

  @Test
  void newerFormatVersionAndWrongKindAndTruncationFailLoudly() {
    byte[] newer = TaggedWriter.record(RecordKind.SYSTEM_PARAMS, 2).toBytes();
    assertThatThrownBy(() -> SystemParams.decode(newer)).hasMessageContaining("format version 2");
    assertThatThrownBy(() -> SystemParams.decode(MetadataSamples.JOB.encode()))
        .hasMessageContaining("expected a SYSTEM_PARAMS record, got JOB");
    byte[] full = MetadataSamples.PARAMS.encode();
    byte[] cut = java.util.Arrays.copyOf(full, full.length - 3);
    assertThatThrownBy(() -> SystemParams.decode(cut)).hasMessageContaining("claims 8 bytes");
  }

  @Test
  void systemParamsEnforceTheirMinimums() {
    assertThatThrownBy(() -> new SystemParams(9, 1, 1, 0))
        .hasMessageContaining("barrier_interval_ms must be >= 10, got 9");
    assertThat(new SystemParams(10, 1, 1, 0).barrierIntervalMs()).isEqualTo(10);
    assertThat(SystemParams.DEFAULTS.barrierIntervalMs()).isEqualTo(1000);
  }
}

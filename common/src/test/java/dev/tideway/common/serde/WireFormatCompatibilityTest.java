package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Messages written by every format version this build reads still decode to the same values. The
 * golden files hold the {@link Samples} as encoded when the version was cut, each record as a
 * 4-byte length and the message bytes; record i must decode to sample i. So: append new samples at
 * the end of their list, never reorder them, and never regenerate a released version's files.
 *
 * <p>Version 2 changed {@code StreamScan} (upstream table layout and rate limit added); version 1
 * files keep decoding through {@code StreamScanSerializer}. Version 3 changed {@code HashJoin}
 * (growing columns added); older files keep decoding through {@code HashJoinSerializer}.
 *
 * <p>To cut the files of a new format version, run this test once with {@code
 * -Dtideway.golden.write=true} from the module directory and commit {@code
 * src/test/resources/serde/golden-v<N>-*.bin} (only the current version's files are written).
 */
class WireFormatCompatibilityTest {

  private final TidewayKryo kryo = TidewayKryo.create();

  @Test
  void coreSamplesOfVersion1StillDecode() throws IOException {
    check(1, "core", Samples.core());
  }

  @Test
  void planSamplesOfVersion1StillDecode() throws IOException {
    check(1, "plan", Samples.plan());
  }

  @Test
  void coreSamplesOfVersion2StillDecode() throws IOException {
    check(2, "core", Samples.core());
  }

  @Test
  void planSamplesOfVersion2StillDecode() throws IOException {
    check(2, "plan", Samples.plan());
  }

  @Test
  void coreSamplesOfVersion3StillDecode() throws IOException {
    check(3, "core", Samples.core());
  }

  @Test
  void planSamplesOfVersion3StillDecode() throws IOException {
    check(3, "plan", Samples.plan());
  }

  private void check(int version, String name, List<Object> samples) throws IOException {
    String resource = "serde/golden-v" + version + "-" + name + ".bin";
    if (Boolean.getBoolean("tideway.golden.write") && version == TidewayKryo.FORMAT_VERSION) {
      write(Path.of("src/test/resources", resource), samples);
    }
    List<byte[]> records = read(resource);
    assertThat(records.size()).as("records in %s", resource).isLessThanOrEqualTo(samples.size());
    assertThat(records).as("records in %s", resource).isNotEmpty();
    for (int i = 0; i < records.size(); i++) {
      assertThat(records.get(i)[0]).isEqualTo((byte) version);
      Object decoded = kryo.deserialize(records.get(i));
      assertThat(decoded).as("%s record %s", resource, i).isEqualTo(samples.get(i));
    }
  }

  private void write(Path file, List<Object> samples) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      for (Object s : samples) {
        byte[] b = kryo.serialize(s);
        out.writeInt(b.length);
        out.write(b);
      }
    }
    Files.createDirectories(file.getParent());
    Files.write(file, bytes.toByteArray());
  }

  private static List<byte[]> read(String resource) throws IOException {
    List<byte[]> out = new ArrayList<>();
    try (InputStream in =
        WireFormatCompatibilityTest.class.getClassLoader().getResourceAsStream(resource)) {
      assertThat(in).as("golden file %s (see class javadoc to create it)", resource).isNotNull();
      DataInputStream data = new DataInputStream(in);
      while (data.available() > 0) {
        byte[] b = new byte[data.readInt()];
        data.readFully(b);
        out.add(b);
      }
    }
    return out;
  }
}

package dev.tideway.meta.progress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.progress.BackfillActor;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.BackfillState;
import dev.tideway.barrier.progress.JobSpec;
import dev.tideway.barrier.progress.TrackerSnapshot.JobSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The persisted progress snapshot: golden v1 file, and every state kind round-trips. */
class ProgressSnapshotCodecTest {
  static final JobSnapshot SAMPLE =
      new JobSnapshot(
          new JobSpec(
              6,
              BackfillMode.ARRANGEMENT,
              List.of(BackfillActor.table(20), BackfillActor.table(21), BackfillActor.source(22)),
              Map.of(4, 2)),
          1000,
          990,
          List.of(
              new BackfillState.ConsumingUpstream(77L << 16, 150),
              new BackfillState.Done(500),
              new BackfillState.Init()),
          Map.of(20, 1000L),
          0.325,
          42.5,
          123_456,
          650,
          123_000);

  @Test
  void goldenV1DecodesToTheSampleAndTheSampleEncodesToIt() throws IOException {
    byte[] encoded = ProgressSnapshotCodec.encode(77L << 16, 1000, SAMPLE);
    String dir = System.getProperty("tideway.golden.write");
    if (dir != null) {
      Files.write(Path.of(dir, "progress-snapshot.bin"), encoded);
    }
    byte[] golden;
    try (InputStream in = getClass().getResourceAsStream("/golden/v1/progress-snapshot.bin")) {
      assertThat(in).as("golden/v1/progress-snapshot.bin").isNotNull();
      golden = in.readAllBytes();
    }
    ProgressSnapshotCodec.Saved saved = ProgressSnapshotCodec.decode(golden);
    assertThat(saved.epoch()).isEqualTo(77L << 16);
    assertThat(saved.meanBarrierIntervalMs()).isEqualTo(1000);
    assertThat(saved.job()).isEqualTo(SAMPLE);
    assertThat(encoded).isEqualTo(golden);
  }
}

package dev.tideway.meta.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tideway.barrier.epoch.Epoch;
import dev.tideway.barrier.progress.BackfillMode;
import dev.tideway.barrier.progress.JobPhase;
import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.barrier.progress.ProgressUpdate;
import dev.tideway.common.time.ManualClock;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.meta.DdlCommand;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The dashboard's memory: rings, per-second percentiles, and the history entry of a backfill. */
class DashboardRecorderTest {
  static final long T0 = 1_800_000_000_000L;

  static JobProgress progress(long jobId, long ms, long consumed, double shown, boolean done) {
    return new JobProgress(
        jobId,
        Epoch.fromUnixMillis(ms),
        BackfillMode.ARRANGEMENT,
        done ? JobPhase.DONE : JobPhase.SNAPSHOT,
        consumed,
        0,
        0,
        1000,
        OptionalLong.empty(),
        false,
        shown,
        shown,
        100,
        OptionalLong.of(5),
        0,
        0,
        done ? 1 : 0,
        0,
        1,
        1,
        Optional.empty());
  }

  @Test
  void aRingKeepsTheNewestHourAndUpdatesTheCurrentSecondInPlace() {
    SeriesRing r = new SeriesRing(10, 1);
    for (int s = 0; s < 25; s++) {
      r.set(r.row(T0 + s * 1000L), 0, s);
    }
    r.set(r.row(T0 + 24_500), 0, 99); // same second: replaces, no new row
    SeriesRing.Rows all = r.since(Long.MIN_VALUE);
    assertThat(all.size()).isEqualTo(10 - SeriesRing.READ_MARGIN);
    assertThat(all.times()[all.size() - 1]).isEqualTo(T0 + 24_000);
    assertThat(all.columns()[0][all.size() - 1]).isEqualTo(99);
    assertThat(r.since(T0 + 22_000).size()).as("only rows newer than since").isEqualTo(2);
    assertThat(r.row(T0)).as("a second before the head is dropped").isEqualTo(-1);
  }

  @Test
  void theProgressErrorIsTheLargestGapBetweenShownAndMeasuredFractions() {
    // 1000 rows in all; at t=1 s the bar showed 0.5 while 300 rows (0.3) were done: 0.2 off
    ProgressAccuracy.Figures f =
        ProgressAccuracy.measure(
            new long[] {1000, 2000, 3000},
            new double[] {300, 600, 1000},
            new double[] {0.5, 0.62, 1.0},
            1000,
            0,
            4000);
    assertThat(f.error()).isCloseTo(0.2, within(1e-9));
    assertThat(f.errorAtMs()).isEqualTo(1000);
    assertThat(f.peakRowsPerSecond()).isCloseTo(400, within(1e-9));
    assertThat(f.avgRowsPerSecond()).isCloseTo(250, within(1e-9));
  }

  @Test
  void aFinishedBackfillIsSubmittedToTheHistoryWithItsMeasuredError() {
    ManualClock clock = new ManualClock(T0);
    List<DdlCommand> submitted = new ArrayList<>();
    DashboardRecorder r =
        new DashboardRecorder(clock, () -> Optional.of(CatalogState.empty()), submitted::add);
    // the tracker over-estimated early (0.4 shown at 200 of 1000 rows), then caught up
    // (samples late in their seconds: rates use their exact times, not the seconds')
    r.onProgress(update(T0 + 1000, progress(7, T0 + 1000, 200, 0.4, false), false));
    r.onProgress(update(T0 + 2900, progress(7, T0 + 2900, 800, 0.65, false), false));
    r.onProgress(update(T0 + 3950, progress(7, T0 + 3950, 1000, 1.0, true), true));

    SeriesRing.Rows rows = r.progress(7, 0).orElseThrow();
    assertThat(rows.columns()[DashboardRecorder.FRACTION]).containsExactly(0.4, 0.65, 1.0);
    assertThat(submitted).hasSize(1);
    BackfillHistory.Entry e = ((DdlCommand.RecordBackfill) submitted.get(0)).entry();
    assertThat(e.jobId()).isEqualTo(7);
    assertThat(e.rows()).isEqualTo(1000);
    assertThat(e.progressError()).isCloseTo(0.2, within(1e-9));
    assertThat(e.samples()).isEqualTo(3);
    assertThat(e.peakRowsPerSecond())
        .as("600 rows in 1900 ms (by the seconds' starts it would be 1000 ms)")
        .isCloseTo(600 / 1.9, within(1e-9));
    assertThat(e.progressErrorAtMs()).isEqualTo(T0 + 1000);
  }

  @Test
  void latencyPercentilesAndEpochsAreKeptPerSecondAndRecoveriesAsEvents() {
    ManualClock clock = new ManualClock(T0);
    DashboardRecorder r = new DashboardRecorder(clock, Optional::empty, c -> {});
    for (int i = 1; i <= 100; i++) {
      r.onCollected("BARRIER", i / 1000.0); // 1..100 ms within one second
    }
    r.onCollected("CHECKPOINT", 0.2);
    r.onCommitted(0.05);
    r.onEpochCommitted(1, null);
    clock.advanceMillis(1000);
    r.onRecovery("node_lost");
    SeriesRing.Rows rows = r.barriers(0);
    assertThat(rows.size()).isEqualTo(1);
    assertThat(rows.columns()[DashboardRecorder.COLLECT_P50][0]).isEqualTo(51);
    assertThat(rows.columns()[DashboardRecorder.COLLECT_P99][0]).isEqualTo(100);
    assertThat(rows.columns()[DashboardRecorder.COMMIT_P50][0]).isCloseTo(250, within(1e-6));
    assertThat(rows.columns()[DashboardRecorder.CHECKPOINT_MS][0]).isCloseTo(50, within(1e-6));
    assertThat(rows.columns()[DashboardRecorder.EPOCHS][0]).isEqualTo(101);
    assertThat(r.recoveries()).containsExactly(new DashboardRecorder.Event(T0 + 1000, "node_lost"));
  }

  static ProgressUpdate update(long ms, JobProgress p, boolean finished) {
    return new ProgressUpdate(
        Epoch.fromUnixMillis(ms), List.of(p), finished ? List.of(p.jobId()) : List.of(), false);
  }
}

package dev.tideway.backfill.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.plan.BackfillKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Killing every actor several times during backfill (recovery from the committed epoch, uncommitted
 * state dropped): each actor resumes from its persisted positions and reports its persisted row
 * count (checked in the world on every recovery), committed progress never goes backwards, and the
 * final MV is exact.
 */
class BackfillResumesFromPersistedPositionsTest {
  @ParameterizedTest(name = "{0} seed {1}")
  @CsvSource({"ARRANGEMENT, 11", "NO_SHUFFLE, 12", "SNAPSHOT, 13", "SNAPSHOT, 14"})
  void killsResumeFromPersistedStateAndFinishExact(BackfillKind kind, long seed) {
    try (BackfillWorld w =
        new BackfillWorld(kind, seed, 2, BackfillMatchesBatchRecomputationTest.OPTIONS)) {
      w.createTable(2500);
      w.createMv();
      long resumedAboveZero = 0;
      int epochs = 0;
      while (!w.finished()) {
        w.epoch(30, null);
        epochs++;
        if (epochs % 7 == 0 && w.kills() < 5) {
          w.kill();
          resumedAboveZero += w.restoredRows().values().stream().filter(r -> r > 0).count();
        }
        assertThat(epochs).as("seed %s: backfill did not finish", seed).isLessThan(600);
      }
      for (int i = 0; i < 5; i++) {
        w.epoch(30, null);
      }
      w.kill();
      for (int i = 0; i < 5; i++) {
        w.epoch(30, null);
      }
      w.commitAll();
      assertThat(w.kills()).isGreaterThanOrEqualTo(3);
      assertThat(resumedAboveZero).as("recoveries resumed mid-way, not from zero").isPositive();
      assertThat(w.mv()).as("seed %s", seed).isEqualTo(w.tableProjected());
    }
  }
}

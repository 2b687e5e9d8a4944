package dev.tideway.backfill.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.backfill.core.BackfillOptions;
import dev.tideway.common.plan.BackfillKind;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * For each kind: an MV created over a table that keeps receiving random inserts, updates (some
 * changing the pk) and deletes equals, at every committed epoch, the batch recomputation of the
 * table restricted to what the committed backfill state says was emitted — and the whole table once
 * finished. Replay a failure with the seed in its message.
 */
class BackfillMatchesBatchRecomputationTest {
  static final BackfillOptions OPTIONS = BackfillOptions.DEFAULT.withChunkRows(16);

  @ParameterizedTest(name = "{0} seed {1}")
  @CsvSource({
    "ARRANGEMENT, 1",
    "ARRANGEMENT, 2",
    "NO_SHUFFLE, 3",
    "NO_SHUFFLE, 4",
    "SNAPSHOT, 5",
    "SNAPSHOT, 6"
  })
  void mvEqualsBatchRecomputationAtEveryCommittedEpoch(BackfillKind kind, long seed) {
    try (BackfillWorld w = new BackfillWorld(kind, seed, 2, OPTIONS)) {
      w.createTable(2500);
      for (int i = 0; i < 5; i++) {
        w.epoch(40, null);
      }
      w.createMv();
      int epochs = 0;
      while (!w.finished()) {
        w.epoch(30, null);
        assertThat(++epochs).as("seed %s: backfill did not finish", seed).isLessThan(500);
      }
      for (int i = 0; i < 10; i++) {
        w.epoch(30, null);
      }
      w.commitAll();
      assertThat(w.mv()).as("seed %s", seed).isEqualTo(w.tableProjected());
      assertThat(epochs).as("backfill spans many epochs").isGreaterThan(5);
    }
  }
}

package dev.tideway.backfill.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.message.Mutation;
import dev.tideway.common.plan.BackfillKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code Throttle 0} stops snapshot reads while barriers keep flowing (and upstream changes keep
 * arriving); lifting it lets the job finish with an exact MV.
 */
class ThrottleZeroStopsSnapshotReadsTest {
  @ParameterizedTest
  @EnumSource(value = dev.tideway.common.plan.BackfillKind.class)
  void throttleZeroPausesAndUnlimitedFinishes(BackfillKind kind) {
    try (BackfillWorld w =
        new BackfillWorld(kind, 21, 2, BackfillMatchesBatchRecomputationTest.OPTIONS)) {
      w.createTable(2500);
      w.createMv();
      for (int i = 0; i < 4; i++) {
        w.epoch(20, null);
      }
      w.epoch(20, new Mutation.Throttle(Map.of(100, 0L, 101, 0L)));
      w.epoch(20, null); // the epoch the throttle barrier closed may still hold a forced read
      w.commitAll();
      long[] before = lastRows(w);
      for (int i = 0; i < 15; i++) {
        w.epoch(20, null);
      }
      w.commitAll();
      assertThat(lastRows(w)).as("no snapshot rows while throttled to 0").isEqualTo(before);
      assertThat(w.finished()).isFalse();
      w.epoch(20, new Mutation.Throttle(Map.of(100, Mutation.Throttle.UNLIMITED, 101, -1L)));
      int epochs = 0;
      while (!w.finished()) {
        w.epoch(20, null);
        assertThat(++epochs).isLessThan(500);
      }
      w.epoch(20, null);
      w.commitAll();
      assertThat(w.mv()).isEqualTo(w.tableProjected());
    }
  }

  private static long[] lastRows(BackfillWorld w) {
    List<List<BackfillWorld.Report>> reports = w.committedReports();
    long[] out = new long[reports.size()];
    for (int a = 0; a < out.length; a++) {
      List<BackfillWorld.Report> r = reports.get(a);
      out[a] = r.get(r.size() - 1).rows();
    }
    return out;
  }
}

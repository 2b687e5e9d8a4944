package dev.tideway.barrier.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Seeded simulation of one meta and N nodes (see {@link SimWorld}); invariants in {@link
 * SimInvariants}. Replay one seed with {@code mvn -pl barrier -am test -Dtest=BarrierSimulationTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dtideway.seed=N}.
 */
class BarrierSimulationTest {
  /** Seeds in the default run; the IT runs many more. */
  static final int DEFAULT_SEEDS = 120;

  /** Runs one seed; on failure the message names the seed, the event and the replay command. */
  static SimWorld runSeed(long seed, String testName) {
    SimWorld w = new SimWorld(seed);
    try {
      w.run();
      return w;
    } catch (Throwable t) {
      throw new AssertionError(
          "seed "
              + seed
              + " failed at event #"
              + w.scheduler.executed()
              + " ("
              + w.scheduler.lastEvent()
              + ") t="
              + w.scheduler.elapsedMs()
              + "ms: "
              + t
              + "\nreplay: mvn -pl barrier -am test -Dtest="
              + testName
              + " -Dsurefire.failIfNoSpecifiedTests=false -Dtideway.seed="
              + seed
              + " (-Dtideway.sim.trace=N keeps the last N events)\nlast events:\n  "
              + w.scheduler.recentEvents(),
          t);
    }
  }

  /** The seeds to run: the one in {@code -Dtideway.seed}, else {@code first .. first+count-1}. */
  static long[] seeds(long first, int count) {
    String prop = System.getProperty("tideway.seed");
    if (prop != null) {
      return new long[] {Long.parseLong(prop.trim())};
    }
    long[] s = new long[count];
    for (int i = 0; i < count; i++) {
      s[i] = first + i;
    }
    return s;
  }

  @Test
  void invariantsHoldUnderFailuresForManySeeds() {
    long events = 0;
    int recoveries = 0;
    int failovers = 0;
    int commits = 0;
    int creates = 0;
    for (long seed : seeds(1, DEFAULT_SEEDS)) {
      SimWorld w = runSeed(seed, "BarrierSimulationTest");
      events += w.scheduler.executed();
      recoveries += w.recoveries;
      failovers += w.failovers;
      commits += w.commits;
      creates += w.creates;
    }
    System.out.printf(
        "barrier simulation: %d seeds, %d events, %d commits, %d recoveries, %d meta failovers,"
            + " %d jobs created by Add mid-run%n",
        seeds(1, DEFAULT_SEEDS).length, events, commits, recoveries, failovers, creates);
    assertThat(commits).isPositive();
  }

  @Test
  void aSeedReplaysExactly() {
    SimWorld a = runSeed(7, "BarrierSimulationTest");
    SimWorld b = runSeed(7, "BarrierSimulationTest");
    assertThat(b.scheduler.executed()).isEqualTo(a.scheduler.executed());
    assertThat(b.committedEpoch).isEqualTo(a.committedEpoch);
    assertThat(b.recoveries).isEqualTo(a.recoveries);
  }
}

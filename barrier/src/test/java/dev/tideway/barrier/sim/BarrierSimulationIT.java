package dev.tideway.barrier.sim;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The long simulation run: seeds {@code 1_000 .. 1_000 + N - 1} where N is {@code
 * -Dtideway.sim.seeds} (default 2000). Replay a failing seed with the command it prints.
 */
class BarrierSimulationIT {
  @Test
  void invariantsHoldForThousandsOfSeeds() {
    int count = Integer.getInteger("tideway.sim.seeds", 2_000);
    int commits = 0;
    for (long seed : BarrierSimulationTest.seeds(1_000, count)) {
      commits += BarrierSimulationTest.runSeed(seed, "BarrierSimulationIT").commits;
    }
    assertThat(commits).isPositive();
  }
}

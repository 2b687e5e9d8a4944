package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.chaos.Chaos;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.Clock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short version of {@code tideway chaos} on a real cluster of separate processes (ZooKeeper,
 * two metas, two compute nodes, a frontend): at least ten faults, each kind at least once (kill -9
 * of a compute node, of the meta leader, of the frontend and of ZooKeeper; SIGSTOP of a compute
 * node; the object store refusing writes), under four writing sessions, three views and a view
 * backfilling in the background. Nothing ledgered may be lost, no row may appear that no ledgered
 * write put there, every view must equal its query recomputed over the tables after every fault,
 * and the background job's progress must never go backwards. Replay a run with {@code
 * -Dtideway.seed=N}.
 */
class ChaosIT {
  @TempDir Path dir;

  @Test
  void tenFaultsLoseNothingAndEveryViewStaysExact() throws Exception {
    Path jar = Path.of("").toAbsolutePath().getParent().resolve("cli/target/tideway.jar");
    long seed = RandomSource.fromPropertyOr(Clock.system().currentTimeMillis()).seed();
    Chaos.Report r =
        new Chaos(
                new Chaos.Options(dir, jar, Duration.ZERO, 10, seed, 7, Duration.ofMinutes(2)),
                Clock.system(),
                System.out)
            .run();
    r.print(System.out);
    assertThat(r.faultsInjected()).as("faults injected (seed %s)", seed).isGreaterThanOrEqualTo(10);
    assertThat(r.faultsByKind()).as("every kind of fault").hasSize(6);
    assertThat(r.writesLedgered()).as("writes the clients were told succeeded").isPositive();
    assertThat(r.problems()).as("problems found (seed %s)", seed).isEmpty();
    assertThat(r.writesLost()).isZero();
    assertThat(r.phantomRows()).isZero();
    assertThat(r.mvMismatches()).isZero();
    assertThat(r.progressBackwards()).isZero();
    assertThat(r.backgroundJobFinished()).isTrue();
  }
}

package dev.tideway.cli;

import dev.tideway.cli.chaos.Chaos;
import dev.tideway.common.time.Clock;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tideway chaos}: starts a local cluster of separate processes, runs a workload through the
 * PostgreSQL protocol, injects faults one at a time and judges the result ({@link Chaos}). Prints
 * {@code key=value} lines; exits 0 only when nothing was lost, duplicated or wrong.
 */
@Command(
    name = "chaos",
    mixinStandardHelpOptions = true,
    description =
        "Inject faults into a local multi-process cluster under a workload and check that nothing"
            + " is lost.")
final class ChaosCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--minutes", defaultValue = "5", description = "how long to inject faults")
  double minutes;

  @Option(names = "--min-faults", defaultValue = "10", description = "inject at least this many")
  int minFaults;

  @Option(names = "--seed", description = "random seed (default: the time)")
  Long seed;

  @Option(
      names = "--max-pause-seconds",
      defaultValue = "20",
      description = "longest SIGSTOP of a compute node (at least 5)")
  int maxPause;

  @Option(
      names = "--dir",
      description = "where the cluster's data and logs go (default: a temp dir)")
  Path dir;

  @Option(
      names = "--jar",
      description = "the Tideway jar to run the processes from (default: this one)")
  Path jar;

  @Override
  public Integer call() throws Exception {
    PrintStream out =
        new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
    Path j = jar != null ? jar : ownJar();
    if (j == null || !Files.isRegularFile(j)) {
      spec.commandLine().getErr().println("tideway chaos: no Tideway jar found; pass --jar");
      return 2;
    }
    Path d = dir != null ? dir : Files.createTempDirectory("tideway-chaos");
    long s = seed != null ? seed : Clock.system().currentTimeMillis();
    Chaos.Report r =
        new Chaos(
                new Chaos.Options(
                    d,
                    j,
                    Duration.ofMillis((long) (minutes * 60_000)),
                    minFaults,
                    s,
                    Math.max(5, maxPause),
                    Duration.ofMinutes(3)),
                Clock.system(),
                out)
            .run();
    r.print(out);
    out.println("logs=" + d);
    return r.clean() ? 0 : 1;
  }

  /** The jar this command runs from, or null (running from classes). */
  static Path ownJar() {
    try {
      Path p = Path.of(Tideway.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return p.toString().endsWith(".jar") ? p : null;
    } catch (Exception e) {
      return null;
    }
  }
}

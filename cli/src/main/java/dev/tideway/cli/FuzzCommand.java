package dev.tideway.cli;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.cli.fuzz.Fuzz;
import dev.tideway.common.time.Clock;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tideway fuzz}: starts a playground in a temp dir and runs the differential fuzzer ({@link
 * Fuzz}) against it. Prints {@code key=value} lines; exits 0 only when every view always equalled
 * its query run in batch and the cluster never recovered.
 */
@Command(
    name = "fuzz",
    mixinStandardHelpOptions = true,
    description =
        "Random views and DML on a playground, each view compared with its batch query after"
            + " every step.")
final class FuzzCommand implements Callable<Integer> {
  @Option(names = "--minutes", defaultValue = "5", description = "how long to fuzz")
  double minutes;

  @Option(names = "--seed", description = "random seed (default: the time)")
  Long seed;

  @Option(names = "--max-steps", defaultValue = "1000000", description = "stop after this many")
  int maxSteps;

  @Option(names = "--views", defaultValue = "6", description = "views alive at a time")
  int views;

  @Option(names = "--log", description = "write every statement here (default: discard)")
  Path log;

  @Override
  public Integer call() throws Exception {
    PrintStream out =
        new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true);
    long s = seed != null ? seed : Clock.system().currentTimeMillis();
    Path dir = Files.createTempDirectory("tideway-fuzz");
    int http = freePort();
    Playground.Options o =
        new Playground.Options(dir, "127.0.0.1", 0, http, freePort(), freePort(), 200);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root");
        PrintStream sqlLog =
            log != null
                ? new PrintStream(Files.newOutputStream(log), true)
                : new PrintStream(OutputStream.nullOutputStream())) {
      Fuzz.Report r =
          new Fuzz(
                  new Fuzz.Options(
                      s, Duration.ofMillis((long) (minutes * 60_000)), maxSteps, views),
                  c,
                  http,
                  sqlLog,
                  Clock.system())
              .run();
      r.print(out);
      return r.clean() ? 0 : 1;
    }
  }

  private static int freePort() throws java.io.IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}

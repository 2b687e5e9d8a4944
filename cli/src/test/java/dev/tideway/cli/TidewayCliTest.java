package dev.tideway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TidewayCliTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cmd = Tideway.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    return cmd.execute(args);
  }

  @Test
  void helpListsTheSubcommands() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("Usage: tideway").contains("version").contains("bench");
  }

  @Test
  void everyRoleAnswersHelpWithItsOptions() {
    assertThat(run("playground", "--help")).isZero();
    assertThat(out.toString()).contains("--pg-port").contains("--data-dir");
    for (String role : new String[] {"zookeeper", "meta", "compute", "frontend"}) {
      assertThat(run(role, "--help")).as(role).isZero();
      assertThat(out.toString()).contains("Usage: tideway " + role);
    }
    assertThat(err.toString()).doesNotContain("Unknown option");
  }

  @Test
  void versionPrintsTheBuildVersion() {
    assertThat(run("version")).isZero();
    assertThat(out.toString()).matches("(?s)tideway \\d+\\.\\d+\\.\\d+.*");
  }

  @Test
  void benchWithoutNameListsBenchmarks() {
    assertThat(run("bench")).isZero();
    assertThat(out.toString()).startsWith("benchmarks:");
  }

  @Test
  void unknownBenchmarkIsAClearErrorWithExitCode2() {
    assertThat(run("bench", "nosuch")).isEqualTo(2);
    assertThat(err.toString()).contains("no benchmark named 'nosuch'");
  }

  @Test
  void unknownSubcommandFails() {
    assertThat(run("frobnicate")).isNotZero();
    assertThat(err.toString()).contains("frobnicate");
  }

  @Test
  void aMetaSessionTimeoutBelowOneSecondIsRefusedBeforeAnythingStarts() {
    assertThat(
            run(
                "meta",
                "--participant-id",
                "m1",
                "--store",
                "file:///nonexistent/store",
                "--zookeeper",
                "127.0.0.1:1",
                "--zk-session-timeout-ms",
                "500"))
        .isEqualTo(1);
    assertThat(err.toString()).contains("zk session timeout must be >= 1000 ms, got 500");
  }
}

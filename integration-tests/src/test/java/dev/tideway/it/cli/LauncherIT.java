package dev.tideway.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Starts the real shaded jar as a separate process, as {@code bin/tideway} does. */
class LauncherIT {
  private static Path jar;

  @BeforeAll
  static void findJar() {
    jar = Path.of("").toAbsolutePath().getParent().resolve("cli/target/tideway.jar");
    assertThat(jar).as("the cli module's shaded jar").exists();
  }

  private record Result(int exitCode, String out) {}

  private static Result run(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx512m");
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] bytes = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("tideway %s finished", List.of(args)).isTrue();
    return new Result(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
  }

  @Test
  void helpWorksFromTheShadedJar() throws Exception {
    Result r = run("--help");
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("Usage: tideway").contains("bench");
  }

  @Test
  void badSubcommandExitsNonZeroWithOneClearLine() throws Exception {
    Result r = run("bench", "no-such-benchmark");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out().strip().lines()).hasSize(1);
    assertThat(r.out()).contains("no benchmark named 'no-such-benchmark'");
  }

  @Test
  void launcherScriptExistsAndIsExecutable() {
    Path script = jar.getParent().getParent().getParent().resolve("bin/tideway");
    assertThat(Files.isExecutable(script)).as("%s is executable", script).isTrue();
  }
}

package dev.tideway.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Builds the image from the repository's {@code Dockerfile} and runs it: {@code tideway version}
 * answers, the process runs as the non-root user, the heap follows the container's memory limit,
 * and {@code docker stop} (SIGTERM) ends a running playground cleanly. Needs a Docker daemon: where
 * none answers (CI has none) the test is skipped and says why.
 */
class DockerImageIT {
  static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  static final String TAG = "tideway:it";

  @Test
  void theImageBuildsRunsAsNonRootAndStopsOnSigterm() throws Exception {
    Result info = run(List.of("docker", "info", "--format", "{{.ServerVersion}}"), 30);
    Assumptions.assumeTrue(
        info.status() == 0,
        () -> {
          String why = "no Docker daemon answers here (docker info: " + info.output().strip() + ")";
          System.out.println("DockerImageIT skipped: " + why);
          return why;
        });
    Result build = run(List.of("docker", "build", "-t", TAG, ROOT.toString()), 1800);
    assertThat(build.status()).as("docker build: %s", build.output()).isZero();

    Result version = run(List.of("docker", "run", "--rm", TAG, "version"), 120);
    assertThat(version.status()).as(version.output()).isZero();
    assertThat(version.output()).containsIgnoringCase("tideway");

    Result user = run(List.of("docker", "run", "--rm", "--entrypoint", "id", TAG, "-u"), 60);
    assertThat(user.output().strip()).isEqualTo("10001");

    Result heap =
        run(
            List.of(
                "docker",
                "run",
                "--rm",
                "--memory",
                "512m",
                "--entrypoint",
                "java",
                TAG,
                "-XX:+PrintFlagsFinal",
                "-version"),
            120);
    String maxHeap =
        heap.output().lines().filter(l -> l.contains(" MaxHeapSize ")).findFirst().orElseThrow();
    long bytes = Long.parseLong(maxHeap.replaceAll(".*=\\s*(\\d+).*", "$1"));
    assertThat(bytes).as("70%% of a 512 MiB limit").isBetween(300L << 20, 400L << 20);

    Result started =
        run(List.of("docker", "run", "-d", "--name", "tideway-it-sigterm", TAG, "playground"), 60);
    try {
      assertThat(started.status()).as(started.output()).isZero();
      Thread.sleep(20_000);
      Result stop = run(List.of("docker", "stop", "-t", "30", "tideway-it-sigterm"), 60);
      assertThat(stop.status()).isZero();
      Result exit =
          run(List.of("docker", "inspect", "-f", "{{.State.ExitCode}}", "tideway-it-sigterm"), 30);
      // 143 = 128 + SIGTERM: the JVM ran its shutdown hooks and exited on the signal, not killed
      assertThat(exit.output().strip()).isIn("0", "143");
    } finally {
      run(List.of("docker", "rm", "-f", "tideway-it-sigterm"), 60);
    }
  }

  record Result(int status, String output) {}

  static Result run(List<String> cmd, int timeoutS) throws IOException, InterruptedException {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(-1, "cannot run " + cmd.get(0) + ": " + e.getMessage());
    }
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out: " + String.join(" ", cmd));
    }
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }
}

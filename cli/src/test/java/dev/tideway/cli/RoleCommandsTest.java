package dev.tideway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A role process whose actor system stopped under it (the cluster downed the member) must not
 * linger as a process without a cluster: {@code runUntilStopped} returns {@link
 * RoleCommands#DOWNED}, which {@code main} turns into the exit status (its shutdown hook then
 * closes the process), so a supervisor starts it again.
 */
class RoleCommandsTest {
  @Test
  void aProcessWhoseActorSystemStoppedExitsWithTheDownedStatus() throws Exception {
    CompletableFuture<Void> terminated = new CompletableFuture<>();
    ExecutorService t = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> status =
          t.submit(
              () ->
                  RoleCommands.runUntilStopped(
                      () -> {}, terminated, "compute", new PrintWriter(new StringWriter())));
      TimeUnit.MILLISECONDS.sleep(200);
      assertThat(status.isDone()).as("runs while its actor system runs").isFalse();
      terminated.complete(null);
      assertThat(status.get(10, TimeUnit.SECONDS)).isEqualTo(RoleCommands.DOWNED);
    } finally {
      t.shutdownNow();
    }
  }
}

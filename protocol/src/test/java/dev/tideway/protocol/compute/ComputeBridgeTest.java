package dev.tideway.protocol.compute;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.tideway.protocol.cluster.PekkoMember;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * A request to a node that never answers (a fire-and-forget drop, a node that stopped answering but
 * stays a cluster member) fails after the bridge's request lifetime and leaves nothing behind:
 * before, such requests stayed in the pending map for the life of the meta or frontend process.
 */
class ComputeBridgeTest {
  @Test
  void anUnansweredRequestFailsAfterItsLifetimeAndIsForgotten() throws Exception {
    Config cfg =
        ConfigFactory.parseString(
                "pekko.remote.artery.canonical.hostname = \"127.0.0.1\"\n"
                    + "pekko.remote.artery.canonical.port = 0\n"
                    + "pekko.cluster.jmx.multi-mbeans-in-same-jvm = on\n"
                    + "pekko.loglevel = ERROR")
            .withFallback(ConfigFactory.load().getConfig("tideway.cluster.pekko").atKey("pekko"))
            .withFallback(ConfigFactory.load());
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), PekkoMember.SYSTEM_NAME, cfg);
    try (ComputeBridge bridge = new ComputeBridge(system, "bridge", Duration.ofMillis(500))) {
      String silent = "pekko://" + PekkoMember.SYSTEM_NAME + "@127.0.0.1:" + freePort();
      CompletableFuture<ComputeEvent> f =
          bridge.request(
              silent, id -> new ComputeRequest.DropActors(id, Set.of(1), bridge.replyTo()));
      assertThat(bridge.pendingCount()).isEqualTo(1);
      try {
        f.get(30, TimeUnit.SECONDS);
        throw new AssertionError("a node that does not exist answered: " + f.join());
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(TimeoutException.class);
      }
      assertThat(bridge.pendingCount()).as("the failed request is forgotten").isZero();
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  private static int freePort() throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}

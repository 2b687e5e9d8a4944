package dev.tideway.compute.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.tideway.common.time.Clock;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.ControlMessage;
import dev.tideway.storage.api.StateStores;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Two compute nodes (two Pekko members in this JVM over Artery TCP on loopback) found through an
 * in-process ZooKeeper, and a probe standing in for the meta leader: an actor on node A that queues
 * every {@link ComputeEvent} it receives. Commands to node B are sent through node A's system, so
 * they and their replies cross Artery and the Kryo serializer.
 *
 * <p>One cluster serves every node test class of a run ({@link #shared}, closed when the run ends):
 * starting the two actor systems is most of the tests' time. Tests start from {@link #reset}, as
 * after a recovery, with epochs above every earlier test's (the state stores refuse to sync an
 * older epoch).
 */
final class TwoNodeCluster implements AutoCloseable {
  final TestingServer zk;
  final Storage storageA = StateStores.open("memory://", StorageOptions.defaults());

  /**
   * Node B's store does no compaction of its own (a version owner, as meta's store is), so a {@code
   * Compact} command finds the SSTs it names.
   */
  final Storage storageB =
      StateStores.open("memory://", StorageOptions.defaults(), StorageRole.versionOwner());

  final ComputeNode a;
  final ComputeNode b;
  final ActorRef<ComputeEvent> meta;
  final ActorRef<ControlMessage> controlA;
  final ActorRef<ControlMessage> controlB;
  private final LinkedBlockingQueue<ComputeEvent> events = new LinkedBlockingQueue<>();

  /** The nodes' recovery generation; {@link #reset} bumps it. */
  long generation;

  /** Epochs only go up across tests: each test's barrier {@code i} is epoch {@code base + i}. */
  int epochBase;

  private long requestIds;

  /** The run's cluster, started by the first test class that asks. */
  static TwoNodeCluster shared(ExtensionContext ctx) {
    return ctx.getRoot()
        .getStore(ExtensionContext.Namespace.GLOBAL)
        .getOrComputeIfAbsent(TwoNodeCluster.class.getName(), k -> Closer.start(), Closer.class)
        .cluster;
  }

  /**
   * Test classes using the shared cluster: {@code @ExtendWith(TwoNodeCluster.Shared.class)}, then
   * {@link Shared#cluster()} from {@code @BeforeAll} on.
   */
  static final class Shared implements BeforeAllCallback {
    private static volatile TwoNodeCluster cluster;

    @Override
    public void beforeAll(ExtensionContext ctx) {
      cluster = shared(ctx);
    }

    static TwoNodeCluster cluster() {
      return cluster;
    }
  }

  /** Closes the shared cluster when the test run ends. */
  private record Closer(TwoNodeCluster cluster)
      implements ExtensionContext.Store.CloseableResource, AutoCloseable {
    static Closer start() {
      try {
        return new Closer(new TwoNodeCluster());
      } catch (Exception e) {
        throw new IllegalStateException("cannot start the two-node test cluster", e);
      }
    }

    @Override
    public void close() throws Exception {
      cluster.close();
    }
  }

  long nextRequestId() {
    return ++requestIds;
  }

  /**
   * Both nodes reset to a new generation (dropping every actor), the next test's epochs start 100
   * above the previous test's, and pending events are dropped.
   */
  void reset() throws InterruptedException {
    generation++;
    epochBase += 100;
    controlA.tell(new ComputeRequest.ResetForRecovery(nextRequestId(), generation, 0, meta));
    controlB.tell(new ComputeRequest.ResetForRecovery(nextRequestId(), generation, 0, meta));
    int acks = 0;
    while (acks < 2) {
      if (take() instanceof ComputeEvent.Ack) {
        acks++;
      }
    }
    events.clear();
  }

  TwoNodeCluster() throws Exception {
    zk = new TestingServer(true);
    a = ComputeNode.start(config(1), TestJob.builders(), Clock.system(), storageA);
    b = ComputeNode.start(config(2), TestJob.builders(), Clock.system(), storageB);
    meta =
        a.system()
            .systemActorOf(
                Behaviors.<ComputeEvent>receiveMessage(
                    e -> {
                      events.add(e);
                      return Behaviors.same();
                    }),
                "meta-probe",
                Props.empty());
    controlA = a.control();
    controlB = a.controlAt(b.address());
  }

  private Config config(int nodeId) {
    return ConfigFactory.parseString(
            "tideway.compute { node-id = "
                + nodeId
                + ", listen = \"127.0.0.1:0\", zookeeper = \""
                + zk.getConnectString()
                + "\", http-port = 0, exchange.credit-window = 8, exchange.batch-rows = 64 }\n"
                + "tideway.compute.pekko.cluster.jmx.multi-mbeans-in-same-jvm = on\n"
                + "tideway.compute.pekko.loglevel = WARNING")
        .withFallback(ConfigFactory.load());
  }

  ComputeEvent take() throws InterruptedException {
    ComputeEvent e = events.poll(30, TimeUnit.SECONDS);
    if (e == null) {
      throw new AssertionError("no event from the compute nodes within 30 s");
    }
    return e;
  }

  ComputeEvent poll(long ms) throws InterruptedException {
    return events.poll(ms, TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() throws Exception {
    try {
      b.close();
    } finally {
      try {
        a.close();
      } finally {
        zk.close();
        storageA.close();
        storageB.close();
      }
    }
  }
}

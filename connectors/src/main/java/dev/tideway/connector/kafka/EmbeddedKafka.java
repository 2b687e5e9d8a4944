package dev.tideway.connector.kafka;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A single-node Kafka broker (KRaft: one process is broker and controller) in this JVM, for the
 * playground's {@code --with-kafka} and for tests. Its log lives in a directory of its own (kept
 * when given, a temporary one deleted on {@link #close} otherwise).
 *
 * <p>Needs the broker jars ({@code kafka_2.13}), which only the launcher and tests carry. The
 * internal topics are set to one replica, as one node can hold no more. Thread-safe.
 */
public final class EmbeddedKafka implements AutoCloseable {
  private final KafkaRaftServer server;
  private final Path dir;
  private final boolean ownsDir;
  private final String bootstrap;
  private boolean closed;

  private EmbeddedKafka(KafkaRaftServer server, Path dir, boolean ownsDir, String bootstrap) {
    this.server = server;
    this.dir = dir;
    this.ownsDir = ownsDir;
    this.bootstrap = bootstrap;
  }

  /** Starts a broker in a temporary directory, on free loopback ports. */
  public static EmbeddedKafka start() {
    try {
      return start(Files.createTempDirectory("tideway-kafka-"), 0, true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the embedded Kafka broker's directory", e);
    }
  }

  /**
   * Starts a broker keeping its log in {@code dir} (formatted on first use, reused after),
   * listening on {@code port} (0: a free one); returns once it answers an admin request.
   */
  public static EmbeddedKafka start(Path dir, int port) {
    return start(dir, port, false);
  }

  private static EmbeddedKafka start(Path dir, int port, boolean ownsDir) {
    int brokerPort = port == 0 ? freePort() : port;
    int controllerPort = freePort();
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", "1");
    p.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
    p.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
    p.put("controller.listener.names", "CONTROLLER");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("log.dirs", dir.toString());
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "4");
    p.put("group.initial.rebalance.delay.ms", "0");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "4");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("num.partitions", "1");
    p.put("auto.create.topics.enable", "false");
    KafkaConfig cfg = new KafkaConfig(p);
    try {
      Files.createDirectories(dir);
      if (!Files.exists(dir.resolve("meta.properties"))) {
        new Formatter()
            .setClusterId(Uuid.randomUuid().toString())
            .setNodeId(1)
            .setControllerListenerName("CONTROLLER")
            .setMetadataLogDirectory(dir.toString())
            .setDirectories(List.of(dir.toString()))
            .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
            .setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
            .run();
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot format the embedded Kafka broker's log in " + dir, e);
    }
    KafkaRaftServer server = new KafkaRaftServer(cfg, Time.SYSTEM);
    try {
      server.startup();
    } catch (RuntimeException e) { // a port taken, a bad directory: leave no thread behind
      server.shutdown();
      server.awaitShutdown();
      if (ownsDir) {
        deleteTree(dir);
      }
      throw new IllegalStateException(
          "the embedded Kafka broker could not start on port " + brokerPort + ": " + e.getMessage(),
          e);
    }
    EmbeddedKafka k = new EmbeddedKafka(server, dir, ownsDir, "127.0.0.1:" + brokerPort);
    try (Admin admin = k.admin()) {
      admin.describeCluster().clusterId().get(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      k.close();
      throw new IllegalStateException("interrupted while the embedded Kafka broker started", e);
    } catch (ExecutionException | TimeoutException e) {
      k.close();
      throw new IllegalStateException("the embedded Kafka broker did not come up", e);
    }
    return k;
  }

  /** {@code host:port} for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return bootstrap;
  }

  /** An admin client of this broker; the caller closes it. */
  public Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrap,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
            "10000"));
  }

  /** Creates {@code topic} with {@code partitions} partitions (one replica). */
  public void createTopic(String topic, int partitions) {
    try (Admin admin = admin()) {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + topic, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot create topic " + topic, e);
    }
  }

  /** Grows {@code topic} to {@code partitions} partitions. */
  public void addPartitions(String topic, int partitions) {
    try (Admin admin = admin()) {
      admin
          .createPartitions(Map.of(topic, NewPartitions.increaseTo(partitions)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while growing topic " + topic, e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("cannot grow topic " + topic, e);
    }
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.shutdown();
    server.awaitShutdown();
    if (ownsDir) {
      deleteTree(dir);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port for the embedded Kafka broker", e);
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException ignored) {
      // a temporary directory left behind is harmless
    }
  }
}

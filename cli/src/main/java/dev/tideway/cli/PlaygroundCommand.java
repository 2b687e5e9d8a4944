package dev.tideway.cli;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import dev.tideway.connector.kafka.EmbeddedKafka;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tideway playground}: the whole cluster in one process (embedded ZooKeeper, meta, compute,
 * frontend), data kept under {@code ./tideway-data}. Runs until interrupted.
 */
@Command(
    name = "playground",
    mixinStandardHelpOptions = true,
    description = "Run ZooKeeper, meta, a compute node and a frontend in one process.")
final class PlaygroundCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--data-dir",
      defaultValue = "tideway-data",
      description = "where data is kept across restarts (default: ${DEFAULT-VALUE})")
  Path dataDir;

  @Option(names = "--host", defaultValue = "127.0.0.1", description = "bind address")
  String host;

  @Option(names = "--pg-port", defaultValue = "4566", description = "PostgreSQL port")
  int pgPort;

  @Option(names = "--http-port", defaultValue = "5691", description = "meta HTTP API port")
  int httpPort;

  @Option(names = "--zookeeper-port", defaultValue = "2181", description = "ZooKeeper port")
  int zkPort;

  @Option(names = "--compute-port", defaultValue = "5688", description = "compute Pekko port")
  int computePort;

  @Option(
      names = "--compute-http-port",
      defaultValue = "5692",
      description = "compute node /metrics port (0: any free port)")
  int computeHttpPort;

  @Option(
      names = "--pg-tls-cert",
      description = "PEM certificate chain for TLS on the PostgreSQL port (with --pg-tls-key)")
  String pgTlsCert;

  @Option(names = "--pg-tls-key", description = "PEM PKCS#8 private key of --pg-tls-cert")
  String pgTlsKey;

  @Option(
      names = "--with-kafka",
      description =
          "also start a one-node Kafka broker (its log under the data directory) and print its"
              + " address, for trying kafka sources and sinks")
  boolean withKafka;

  @Option(
      names = "--kafka-port",
      defaultValue = "9092",
      description = "the --with-kafka broker's port (0: any free port)")
  int kafkaPort;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Playground p;
    EmbeddedKafka kafka = null;
    try {
      if (withKafka) {
        kafka = EmbeddedKafka.start(dataDir.resolve("kafka"), kafkaPort);
      }
      Playground.Options o =
          new Playground.Options(
                  dataDir, host, pgPort, httpPort, zkPort, computePort, computeHttpPort, 1000)
              .withPgTls(
                  dev.tideway.frontend.pgwire.PgTls.configured(
                      dev.tideway.common.config.TidewayConfig.ofProcess(), pgTlsCert, pgTlsKey));
      p = Playground.start(o, Clock.system());
    } catch (Exception e) {
      if (kafka != null) {
        kafka.close();
      }
      spec.commandLine().getErr().println("tideway playground: could not start: " + e.getMessage());
      return 1;
    }
    EmbeddedKafka broker = kafka;
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    p.close();
                  } catch (Exception e) {
                    System.err.println("tideway playground: error while stopping: " + e);
                  }
                  if (broker != null) {
                    broker.close();
                  }
                  stopped.countDown();
                },
                "playground-shutdown"));
    out.println("Tideway playground is running. Data: " + dataDir.toAbsolutePath());
    out.println("  SQL:  " + p.psqlLine());
    out.println("  HTTP: http://" + host + ":" + httpPort + "/api/jobs  (metrics: /metrics)");
    if (broker != null) {
      out.println(
          "  Kafka: "
              + broker.bootstrapServers()
              + "  (CREATE SOURCE s (...) WITH (connector = 'kafka', topic = '...',"
              + " properties.bootstrap.server = '"
              + broker.bootstrapServers()
              + "') FORMAT PLAIN ENCODE JSON)");
    }
    out.println("Press Ctrl-C to stop.");
    out.flush();
    stopped.await();
    return 0;
  }
}

package dev.tideway.cli.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/**
 * A single ZooKeeper server inside this JVM (the playground, local clusters, tests), with its data
 * under {@code dataDir} so metadata survives a restart.
 */
public final class EmbeddedZooKeeper implements AutoCloseable {
  private final ZooKeeperServerEmbedded server;
  private final int port;

  private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, int port) {
    this.server = server;
    this.port = port;
  }

  /** Starts a server on {@code host:port} and waits until it serves. */
  public static EmbeddedZooKeeper start(Path dataDir, String host, int port) throws Exception {
    Files.createDirectories(dataDir);
    Properties p = new Properties();
    p.setProperty("clientPort", Integer.toString(port));
    p.setProperty("clientPortAddress", host);
    p.setProperty("tickTime", "500");
    p.setProperty("minSessionTimeout", "1000");
    p.setProperty("maxSessionTimeout", "60000");
    p.setProperty("admin.enableServer", "false");
    p.setProperty("4lw.commands.whitelist", "ruok,srvr");
    p.setProperty("maxClientCnxns", "0");
    ZooKeeperServerEmbedded s =
        ZooKeeperServerEmbedded.builder()
            .baseDir(dataDir)
            .configuration(p)
            .exitHandler(ExitHandler.LOG_ONLY)
            .build();
    s.start(30_000);
    return new EmbeddedZooKeeper(s, port);
  }

  /** The connect string clients use. */
  public String connectString(String host) {
    return host + ":" + port;
  }

  @Override
  public void close() {
    server.close();
  }
}

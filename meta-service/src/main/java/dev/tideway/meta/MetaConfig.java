package dev.tideway.meta;

import dev.tideway.common.check.Checks;

/**
 * How to start one meta process.
 *
 * @param clusterId the cluster's id (the ZooKeeper root is {@code /tideway/<cluster-id>})
 * @param zookeeper the ZooKeeper connect string
 * @param participantId this process's id in the election (unique per process)
 * @param advertisedAddress the address peers reach this process at (its Pekko address)
 * @param httpHost the HTTP bind host; 127.0.0.1 unless the operator opens it
 * @param httpPort the HTTP port (5691 by default, 0 for any)
 * @param zkSessionTimeoutMs the ZooKeeper session timeout: the failover time after a crash
 * @param zkConnectTimeoutMs how long start waits for ZooKeeper before failing with one clear line
 */
public record MetaConfig(
    String clusterId,
    String zookeeper,
    String participantId,
    String advertisedAddress,
    String httpHost,
    int httpPort,
    int zkSessionTimeoutMs,
    int zkConnectTimeoutMs) {
  public MetaConfig {
    Checks.checkNotNull(zookeeper, "zookeeper connect string");
    Checks.checkNotNull(participantId, "participant id");
    Checks.checkNotNull(advertisedAddress, "advertised address");
    Checks.checkArgument(
        httpPort >= 0 && httpPort <= 65535, "http port out of range: %s", httpPort);
    Checks.checkArgument(
        zkSessionTimeoutMs >= 1000,
        "zk session timeout must be >= 1000 ms, got %s",
        zkSessionTimeoutMs);
  }

  /**
   * Defaults for a local process: cluster {@code default}, HTTP on 127.0.0.1:5691, 10 s session.
   */
  public static MetaConfig local(String zookeeper, String participantId, String advertisedAddress) {
    return new MetaConfig(
        "default", zookeeper, participantId, advertisedAddress, "127.0.0.1", 5691, 10_000, 15_000);
  }

  public MetaConfig withHttpPort(int port) {
    return new MetaConfig(
        clusterId,
        zookeeper,
        participantId,
        advertisedAddress,
        httpHost,
        port,
        zkSessionTimeoutMs,
        zkConnectTimeoutMs);
  }
}

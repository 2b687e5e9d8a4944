package dev.tideway.meta;

import dev.tideway.common.check.Checks;
import dev.tideway.meta.http.AllowedAddresses;
import java.util.List;

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
 * @param controlAllowed the addresses and CIDR blocks the job page's actions are accepted from
 *     ({@code tideway.meta.http.control-allowed}; loopback by default, see {@link
 *     AllowedAddresses})
 */
public record MetaConfig(
    String clusterId,
    String zookeeper,
    String participantId,
    String advertisedAddress,
    String httpHost,
    int httpPort,
    int zkSessionTimeoutMs,
    int zkConnectTimeoutMs,
    List<String> controlAllowed) {
  /**
   * The configuration key of {@link #controlAllowed} (environment twin {@code TIDEWAY_META_...}).
   */
  public static final String CONTROL_ALLOWED_KEY = "tideway.meta.http.control-allowed";

  public MetaConfig {
    controlAllowed = List.copyOf(controlAllowed);
    AllowedAddresses.parse(controlAllowed); // fails now, naming a bad entry
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

  /** Job actions from loopback only. */
  public MetaConfig(
      String clusterId,
      String zookeeper,
      String participantId,
      String advertisedAddress,
      String httpHost,
      int httpPort,
      int zkSessionTimeoutMs,
      int zkConnectTimeoutMs) {
    this(
        clusterId,
        zookeeper,
        participantId,
        advertisedAddress,
        httpHost,
        httpPort,
        zkSessionTimeoutMs,
        zkConnectTimeoutMs,
        AllowedAddresses.LOOPBACK);
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
        zkConnectTimeoutMs,
        controlAllowed);
  }

  /** With job actions accepted from {@code allowed} (addresses and CIDR blocks). */
  public MetaConfig withControlAllowed(List<String> allowed) {
    return new MetaConfig(
        clusterId,
        zookeeper,
        participantId,
        advertisedAddress,
        httpHost,
        httpPort,
        zkSessionTimeoutMs,
        zkConnectTimeoutMs,
        allowed);
  }
}

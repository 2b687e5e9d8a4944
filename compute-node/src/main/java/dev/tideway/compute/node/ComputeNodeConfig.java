package dev.tideway.compute.node;

import com.typesafe.config.Config;
import dev.tideway.common.check.Checks;
import dev.tideway.compute.actor.StateCaches;
import java.util.List;

/**
 * The node's settings, read from {@code tideway.compute} (defaults in this module's {@code
 * reference.conf}).
 *
 * @param nodeId this node's id in barrier messages (unique in the cluster)
 * @param host the address Artery binds and advertises
 * @param port the Artery port (0 = pick a free one, tests)
 * @param httpHost the address the metrics/admin HTTP server binds
 * @param httpPort the metrics/admin HTTP port ({@code /metrics}); 0 picks a free one, -1 turns the
 *     server off
 * @param zookeeper ZooKeeper connect string
 * @param zkRoot the ZooKeeper path under which the cluster registers ({@code /tideway})
 * @param zkSessionTimeoutMs the ZooKeeper session: a crashed node's registration lasts this long,
 *     and peers down it once it is gone
 * @param channelCapacity messages a local channel holds
 * @param creditWindow frames a remote channel may have in flight
 * @param batchRows rows after which a remote frame is sent without waiting for a barrier
 * @param stallTimeoutMs how long a producer waits for credit before failing the channel
 * @param frameBytes about how many encoded bytes a remote frame holds at most: a quarter of Pekko's
 *     {@code maximum-large-frame-size}, the largest message an exchange frame may be
 * @param joinTimeoutMs how long to wait for the node to become Up in the cluster
 * @param stateCaches in-memory bounds of the stateful executors' caches ({@code state.*})
 */
public record ComputeNodeConfig(
    int nodeId,
    String host,
    int port,
    String httpHost,
    int httpPort,
    String zookeeper,
    String zkRoot,
    long zkSessionTimeoutMs,
    int channelCapacity,
    int creditWindow,
    int batchRows,
    long stallTimeoutMs,
    long frameBytes,
    long joinTimeoutMs,
    StateCaches stateCaches) {
  public ComputeNodeConfig {
    Checks.checkArgument(
        channelCapacity >= 1, "channel-capacity must be >= 1, got %s", channelCapacity);
    Checks.checkArgument(
        httpPort >= -1 && httpPort <= 65535,
        "tideway.compute.http-port must be -1 (off), 0 (any free port) or a port, got %s",
        httpPort);
    Checks.checkArgument(
        zkSessionTimeoutMs >= 1_000 && zkSessionTimeoutMs <= MAX_ZK_SESSION_TIMEOUT_MS,
        "tideway.compute.zookeeper-session-timeout must be between 1s and %ss (crashed members"
            + " are downed one session after their death), got %s ms",
        MAX_ZK_SESSION_TIMEOUT_MS / 1000,
        zkSessionTimeoutMs);
    Checks.checkArgument(creditWindow >= 1, "credit-window must be >= 1, got %s", creditWindow);
  }

  /**
   * The longest ZooKeeper session a node may ask for: a crashed member is downed about a session
   * plus 3 s after its death, and its actors wait that long to move.
   */
  public static final long MAX_ZK_SESSION_TIMEOUT_MS = 15_000;

  private static final String LARGE_FRAME = "remote.artery.advanced.maximum-large-frame-size";

  /** The largest message of Pekko's large-message stream, as the node will configure it. */
  static long largeFrameBytes(Config root) {
    for (String prefix : List.of("tideway.compute.pekko.", "tideway.cluster.pekko.", "pekko.")) {
      if (root.hasPath(prefix + LARGE_FRAME)) {
        return root.getBytes(prefix + LARGE_FRAME);
      }
    }
    return 4L << 20;
  }

  /** Reads {@code tideway.compute} from {@code root}. */
  public static ComputeNodeConfig from(Config root) {
    Config c = root.getConfig("tideway.compute");
    String[] listen = c.getString("listen").split(":");
    Checks.checkArgument(
        listen.length == 2,
        "tideway.compute.listen must be HOST:PORT, got %s",
        c.getString("listen"));
    return new ComputeNodeConfig(
        c.getInt("node-id"),
        listen[0],
        Integer.parseInt(listen[1]),
        c.getString("http-host"),
        c.getInt("http-port"),
        c.getString("zookeeper"),
        c.getString("zookeeper-root"),
        c.getDuration("zookeeper-session-timeout").toMillis(),
        c.getInt("exchange.channel-capacity"),
        c.getInt("exchange.credit-window"),
        c.getInt("exchange.batch-rows"),
        c.getDuration("exchange.stall-timeout").toMillis(),
        largeFrameBytes(root) / 4,
        c.getDuration("join-timeout").toMillis(),
        new StateCaches(c.getInt("state.agg-cache-groups"), c.getLong("state.join-cache-units")));
  }
}

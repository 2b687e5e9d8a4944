package dev.tideway.protocol.store;

import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.NodeInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Node registrations in ZooKeeper: each process keeps an ephemeral {@code
 * nodes/<role>/<addr>-<uid>} (a Curator {@code PersistentNode}, re-created after a reconnect) for
 * as long as its session lives; anyone can list the live nodes and read the published meta leader.
 *
 * <p>Thread-safe: Curator recipes are; the registration list is only touched by {@link #register}
 * and {@link #close}, which the process calls from its start/stop thread.
 */
public final class NodeRegistry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NodeRegistry.class);
  private final CuratorFramework client;
  private final MetaPaths paths;
  private final List<PersistentNode> registrations = new ArrayList<>();

  public NodeRegistry(CuratorFramework client, MetaPaths paths) {
    this.client = client;
    this.paths = paths;
  }

  /** Registers {@code node} until {@link #close}; waits up to 10 s for the znode to exist. */
  public void register(NodeInfo node) throws InterruptedException {
    String path = paths.nodes(node.role()) + "/" + node.znodeName();
    PersistentNode n = new PersistentNode(client, CreateMode.EPHEMERAL, false, path, node.encode());
    n.start();
    if (!n.waitForInitialCreate(10, TimeUnit.SECONDS)) {
      throw new IllegalStateException("could not register " + path + " within 10 s");
    }
    registrations.add(n);
  }

  /** The live nodes of {@code role}, in znode-name order. */
  public List<NodeInfo> list(String role) {
    List<NodeInfo> out = new ArrayList<>();
    try {
      List<String> names = new ArrayList<>(client.getChildren().forPath(paths.nodes(role)));
      names.sort(null);
      for (String name : names) {
        try {
          out.add(NodeInfo.decode(client.getData().forPath(paths.nodes(role) + "/" + name)));
        } catch (KeeperException.NoNodeException gone) {
          // expired between list and read
        }
      }
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    } catch (Exception e) {
      throw MetaStoreReader.classify("list nodes " + role, e);
    }
    return out;
  }

  /** The published meta leader, if any. */
  public Optional<LeaderInfo> leader() {
    try {
      return Optional.of(LeaderInfo.decode(client.getData().forPath(paths.leaderAddress())));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw MetaStoreReader.classify("read leader", e);
    }
  }

  /**
   * Removes the registrations. Best effort: if ZooKeeper is unreachable the znodes die with the
   * session anyway, so a failed delete is logged, not thrown.
   */
  @Override
  public void close() {
    for (PersistentNode n : registrations) {
      try {
        n.close();
      } catch (IOException e) {
        LOG.warn(
            "could not remove node registration {} (it expires with the session)",
            n.getActualPath(),
            e);
      }
    }
    registrations.clear();
  }
}

package dev.tideway.protocol.cluster;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.tideway.common.check.Checks;
import dev.tideway.common.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.cluster.Cluster;
import org.apache.zookeeper.CreateMode;

/**
 * Joins the Pekko cluster through ZooKeeper (DESIGN §9): under the join lock {@code
 * <root>/cluster/join-lock}, reads the registered members {@code <root>/cluster/members/*}, drops
 * its own address (a stale entry of a previous incarnation), joins itself when none is left or the
 * listed ones otherwise, waits for Up, and then registers its own address as an ephemeral znode
 * named {@code host:port-uid} (the uid keeps a restarted node clear of its old, not yet expired
 * znode). The lock serializes joins, so nodes starting together never form two clusters. Once
 * registered, the node downs the members whose registration is gone ({@link ZkDowning}).
 *
 * <p>Blocking; runs on the thread that starts the node, never on a Pekko dispatcher.
 */
public final class ZkClusterJoin implements AutoCloseable {
  /** Re-read the members when Up has not come after this long (listed nodes may be dead). */
  private static final long RETRY_MS = 15_000;

  private final CuratorFramework zk;
  private final String membersPath;
  private final String lockPath;
  private final Clock clock;
  private PersistentNode registration;
  private ZkDowning downing;
  private volatile BooleanSupplier arbiter = () -> false;

  public ZkClusterJoin(CuratorFramework zk, String zkRoot, Clock clock) {
    this.zk = zk;
    this.membersPath = zkRoot + "/cluster/members";
    this.lockPath = zkRoot + "/cluster/join-lock";
    this.clock = clock;
  }

  /** The name of a member's registration znode: {@code host:port-uid}. */
  static String registrationName(Address a, long uid) {
    return a.host().get() + ":" + a.port().get() + "-" + uid;
  }

  /** Joins and registers; fails after {@code timeoutMs} without becoming Up. */
  public void join(Cluster cluster, long uid, long timeoutMs) throws Exception {
    Address self = cluster.selfAddress();
    CompletableFuture<Void> up = new CompletableFuture<>();
    cluster.registerOnMemberUp(() -> up.complete(null));
    cluster.registerOnMemberRemoved(
        () ->
            up.completeExceptionally(
                new IllegalStateException(
                    "node " + self + " was removed from the cluster while joining")));
    InterProcessMutex lock = new InterProcessMutex(zk, lockPath);
    Checks.checkState(
        lock.acquire(timeoutMs, TimeUnit.MILLISECONDS),
        "node %s: no cluster join lock at %s within %s ms",
        self,
        lockPath,
        timeoutMs);
    try {
      long waitedMs = 0;
      while (!up.isDone()) {
        List<Address> seeds = readMembers(self);
        if (seeds.isEmpty()) {
          cluster.join(self);
        } else {
          cluster.joinSeedNodes(seeds);
        }
        try {
          up.get(Math.min(RETRY_MS, timeoutMs - waitedMs), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
          waitedMs += RETRY_MS;
          Checks.checkState(
              waitedMs < timeoutMs,
              "node %s: not Up after %s ms (seeds %s)",
              self,
              timeoutMs,
              seeds);
        }
      }
      QuarantineWatch.start(cluster.system());
      register(self, uid);
      downing = new ZkDowning(zk, membersPath, cluster, clock);
      downing.arbiter(() -> arbiter.getAsBoolean());
      downing.start();
    } finally {
      lock.release();
    }
  }

  private List<Address> readMembers(Address self) throws Exception {
    List<Address> out = new ArrayList<>();
    if (zk.checkExists().forPath(membersPath) == null) {
      return out;
    }
    for (String child : zk.getChildren().forPath(membersPath)) {
      byte[] data = zk.getData().forPath(membersPath + "/" + child);
      Address a = AddressFromURIString.parse(new String(data, UTF_8));
      if (!a.equals(self) && !out.contains(a)) {
        out.add(a);
      }
    }
    return out;
  }

  private void register(Address self, long uid) throws Exception {
    String name = registrationName(self, uid);
    registration =
        new PersistentNode(
            zk,
            CreateMode.EPHEMERAL,
            false,
            membersPath + "/" + name,
            self.toString().getBytes(UTF_8));
    registration.start();
    Checks.checkState(
        registration.waitForInitialCreate(10, TimeUnit.SECONDS),
        "node %s: could not register at %s",
        self,
        membersPath);
  }

  /**
   * Makes this member the arbiter of partitions between live members while {@code isArbiter} holds
   * (the meta leader): it downs a member that stays unreachable although registered.
   */
  public void arbiter(BooleanSupplier isArbiter) {
    this.arbiter = isArbiter;
  }

  /** Removes this node's registration (before the ZooKeeper client closes). */
  @Override
  public void close() throws Exception {
    if (downing != null) {
      downing.close();
      downing = null;
    }
    if (registration != null) {
      // Deleting the znode retries for minutes while ZooKeeper is away; then leave it to the
      // session: an ephemeral znode goes when the client closes or its session expires.
      if (zk.getZookeeperClient().isConnected()) {
        registration.close();
      }
      registration = null;
    }
  }
}

package dev.tideway.compute.node;

import dev.tideway.common.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.UniqueAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Downs the Pekko members ZooKeeper says are gone: a member that this node sees unreachable and
 * whose registration {@code host:port-uid} under {@code <root>/cluster/members} has vanished (its
 * ZooKeeper session expired, or it closed) for {@link #GRACE_MS} is dead or cut off from ZooKeeper,
 * and so from every role it held; it is downed at once instead of after the split-brain resolver's
 * stable period.
 *
 * <p>Why: the split-brain resolver decides only once the set of unreachable members has been stable
 * for {@code stable-after} (20 s). A crashed meta process that nobody restarts, followed by compute
 * nodes killed and restarted within those 20 s, kept resetting that timer; the cluster leader could
 * not admit the restarted nodes while a member stayed unreachable, and after {@code
 * down-all-when-unstable} the resolver downed every member, meta included (seen in the
 * multi-process cluster test: recovery then looped on "no compute node is registered" for good).
 * ZooKeeper is already the arbiter of liveness here (the meta leader's latch, the compute
 * registrations), so it decides membership too; the resolver stays for partitions between live
 * members.
 *
 * <p>Every member runs one; downing is idempotent. The check runs on its own thread once a second
 * (ZooKeeper reads block; never on a Pekko dispatcher).
 */
public final class ZkDowning implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ZkDowning.class);

  /**
   * How long an unreachable member must stay unregistered: covers the moment between a joining
   * node's Up and its registration.
   */
  static final long GRACE_MS = 2_000;

  private static final long PERIOD_MS = 1_000;

  private final CuratorFramework zk;
  private final String membersPath;
  private final Cluster cluster;
  private final Clock clock;
  private final Map<UniqueAddress, Long> unregisteredSinceMs = new HashMap<>();
  private final ScheduledExecutorService timer;

  ZkDowning(CuratorFramework zk, String membersPath, Cluster cluster, Clock clock) {
    this.zk = zk;
    this.membersPath = membersPath;
    this.cluster = cluster;
    this.clock = clock;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "zk-downing");
              t.setDaemon(true);
              return t;
            });
  }

  /** Starts the periodic check. */
  ZkDowning start() {
    timer.scheduleWithFixedDelay(this::checkSafely, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS);
    return this;
  }

  private void checkSafely() {
    try {
      check();
    } catch (Exception e) {
      // ZooKeeper unreachable or the cluster shutting down: decide nothing this round
      LOG.debug("membership check skipped: {}", e.toString());
    }
  }

  /** One round: downs the members unreachable and unregistered for {@link #GRACE_MS}. */
  void check() throws Exception {
    Set<Member> unreachable = cluster.state().getUnreachable();
    if (unreachable.isEmpty()) {
      unregisteredSinceMs.clear();
      return;
    }
    Set<String> registered = new HashSet<>(registrations());
    long now = clock.currentTimeMillis();
    Set<UniqueAddress> seen = new HashSet<>();
    for (Member m : unreachable) {
      if (m.status() == MemberStatus.down() || m.status() == MemberStatus.removed()) {
        continue;
      }
      UniqueAddress ua = m.uniqueAddress();
      if (registered.contains(ZkClusterJoin.registrationName(ua.address(), ua.longUid()))) {
        continue;
      }
      seen.add(ua);
      long since = unregisteredSinceMs.computeIfAbsent(ua, a -> now);
      if (now - since >= GRACE_MS) {
        LOG.warn(
            "downing {} (roles {}): unreachable, and its ZooKeeper registration is gone",
            m.address(),
            m.getRoles());
        cluster.down(m.address());
      }
    }
    unregisteredSinceMs.keySet().retainAll(seen);
  }

  private List<String> registrations() throws Exception {
    if (zk.checkExists().forPath(membersPath) == null) {
      return List.of();
    }
    return zk.getChildren().forPath(membersPath);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}

package dev.tideway.protocol.cluster;

import dev.tideway.common.exec.Threads;
import dev.tideway.common.time.Clock;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
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
 * and so from every role it held; it is downed at once.
 *
 * <p>Why ZooKeeper decides: it is already the arbiter of liveness here (the meta leader's latch,
 * the compute registrations). Pekko's split-brain resolver, used before, decided only once the set
 * of unreachable members had been stable for 20 s: churn (a meta process gone, compute nodes killed
 * and restarted within those 20 s) kept resetting it until it downed every member, and under load
 * it downed members that were only slow.
 *
 * <p>A member that stays unreachable although still registered (alive, but cut off from this
 * member: a partition between live members) is downed only by the arbiter, the meta leader, after
 * {@link #PARTITION_DOWN_AFTER_MS}: one member decides, so the two sides of a partition never down
 * each other. There is no split-brain resolver: a member that is merely slow (a long GC, a starved
 * CPU, a slow disk) is alive and registered, and is never downed for it.
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

  /**
   * How long the arbiter lets a member stay unreachable while it is still registered before it
   * downs it (a partition between live members; it must then rejoin as a new incarnation).
   */
  static final long PARTITION_DOWN_AFTER_MS = 60_000;

  private final CuratorFramework zk;
  private final String membersPath;
  private final Cluster cluster;
  private final Clock clock;
  private final Map<UniqueAddress, Long> unregisteredSinceNanos = new HashMap<>();
  private final Map<UniqueAddress, Long> unreachableSinceNanos = new HashMap<>();
  private volatile BooleanSupplier arbiter = () -> false;
  private final ScheduledExecutorService timer;

  ZkDowning(CuratorFramework zk, String membersPath, Cluster cluster, Clock clock) {
    this.zk = zk;
    this.membersPath = membersPath;
    this.cluster = cluster;
    this.clock = clock;
    this.timer = Threads.scheduler("zk-downing");
  }

  /**
   * Makes this member the arbiter of partitions while {@code isArbiter} holds (the meta leader).
   */
  void arbiter(BooleanSupplier isArbiter) {
    this.arbiter = isArbiter;
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

  /**
   * One round: downs the members unreachable and unregistered for {@link #GRACE_MS}. The time a
   * member has been unregistered counts from when this member first saw its registration gone,
   * reachable or not, so a crashed member whose session closed with it is downed as soon as the
   * failure detector marks it unreachable, not a grace period later.
   */
  void check() throws Exception {
    Set<String> registered = new HashSet<>(registrations());
    long now = clock.nanoTime();
    Set<UniqueAddress> unregistered = new HashSet<>();
    for (Member m : cluster.state().getMembers()) {
      UniqueAddress ua = m.uniqueAddress();
      if (registeredOnceUp(m)
          && !registered.contains(ZkClusterJoin.registrationName(ua.address(), ua.longUid()))) {
        unregistered.add(ua);
        unregisteredSinceNanos.computeIfAbsent(ua, a -> now);
      }
    }
    unregisteredSinceNanos.keySet().retainAll(unregistered);
    Set<UniqueAddress> seen = new HashSet<>();
    for (Member m : cluster.state().getUnreachable()) {
      if (!registeredOnceUp(m)) {
        continue;
      }
      UniqueAddress ua = m.uniqueAddress();
      seen.add(ua);
      long unreachableSince = unreachableSinceNanos.computeIfAbsent(ua, a -> now);
      Long unregisteredSince = unregisteredSinceNanos.get(ua);
      if (unregisteredSince == null) {
        if (arbiter.getAsBoolean()
            && now - unreachableSince >= TimeUnit.MILLISECONDS.toNanos(PARTITION_DOWN_AFTER_MS)
            && stillUnreachable(ua)) {
          LOG.warn(
              "downing {} (roles {}): unreachable from the meta leader for {} s although still"
                  + " registered in ZooKeeper (a partition); it must rejoin",
              m.address(),
              m.getRoles(),
              PARTITION_DOWN_AFTER_MS / 1000);
          cluster.down(m.address());
        }
        continue;
      }
      if (now - unregisteredSince >= TimeUnit.MILLISECONDS.toNanos(GRACE_MS)
          && stillUnreachable(ua)) {
        LOG.warn(
            "downing {} (roles {}): unreachable, and its ZooKeeper registration is gone",
            m.address(),
            m.getRoles());
        cluster.down(m.address());
      }
    }
    unreachableSinceNanos.keySet().retainAll(seen);
  }

  /**
   * Whether {@code m} is in a state where it has registered: a member registers once Up, so one
   * still joining (Joining, WeaklyUp) has no registration to lose, and one already leaving or down
   * needs no downing.
   */
  private static boolean registeredOnceUp(Member m) {
    MemberStatus s = m.status();
    return s == MemberStatus.up() || s == MemberStatus.leaving() || s == MemberStatus.exiting();
  }

  /**
   * Whether the incarnation {@code ua} is still an unreachable member now: {@code down} takes an
   * address, and a restarted node on the same address must not be downed for its predecessor.
   */
  private boolean stillUnreachable(UniqueAddress ua) {
    for (Member m : cluster.state().getUnreachable()) {
      if (m.uniqueAddress().equals(ua)) {
        return registeredOnceUp(m);
      }
    }
    return false;
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

package dev.tideway.meta.cluster;

import dev.tideway.common.check.Checks;
import dev.tideway.common.exec.Threads;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.cluster.LeadershipState.Closed;
import dev.tideway.meta.cluster.LeadershipState.Leading;
import dev.tideway.meta.cluster.LeadershipState.Standby;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.store.MetaPaths;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Elects one leader among any number of meta processes with a Curator {@code LeaderLatch}, and
 * turns latch ownership into a fenced {@link LeaderTerm}.
 *
 * <p>Overview: on winning the latch, the owner thread sends one multi-op that bumps the version of
 * {@code leader/epoch} (conditional on the version it read), checks its own latch znode, and
 * replaces the ephemeral {@code leader/address}; the new version is the term's epoch. On SUSPENDED
 * or LOST the Curator event thread voids the term first (one volatile write, so fenced writes fail
 * from that instant), then hands the step-down to the owner thread. Losing the latch does the same.
 *
 * <p>Thread confinement: {@link #state} is written only on the owner thread ({@code
 * meta-leader-1}); {@link #term} is volatile because the store and the connection listener read or
 * void it from other threads. Listener callbacks run on the owner thread, in order.
 */
public final class LeaderElector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);

  private final CuratorFramework client;
  private final MetaPaths paths;
  private final String participantId;
  private final LeaderInfo info;
  private final LeadershipListener listener;
  private final Clock clock;
  private final ExecutorService owner;

  /** Replaced (owner thread) when this process resigns and rejoins the election. */
  private volatile LeaderLatch latch;

  private final ConnectionStateListener connectionListener = this::onConnectionState;

  /** The term fenced writes may use; empty the instant the connection is in doubt. */
  private final AtomicReference<Optional<LeaderTerm>> term =
      new AtomicReference<>(Optional.empty());

  /** Owner thread only. */
  private LeadershipState state = new Standby();

  /**
   * Set first thing in {@link #close}: a resignation sleeping on the owner thread must not rejoin.
   */
  private volatile boolean closing;

  /**
   * @param participantId this process's id in the latch (shown in participants)
   * @param info the address to publish when leading (its epoch is filled in on election)
   */
  public LeaderElector(
      CuratorFramework client,
      MetaPaths paths,
      String participantId,
      LeaderInfo info,
      LeadershipListener listener,
      Clock clock) {
    this.client = client;
    this.clock = clock;
    this.paths = paths;
    this.participantId = participantId;
    this.info = info;
    this.listener = listener;
    this.owner = Threads.singleThread("meta-leader");
    this.latch = new LeaderLatch(client, paths.leaderLatch(), participantId);
  }

  /** Joins the election; returns at once (the outcome arrives through the listener). */
  public void start() throws Exception {
    client.getConnectionStateListenable().addListener(connectionListener);
    join(latch);
  }

  private void join(LeaderLatch l) throws Exception {
    l.addListener(
        new LeaderLatchListener() {
          @Override
          public void isLeader() {
            if (l == latch) {
              onLatchWon();
            }
          }

          @Override
          public void notLeader() {
            if (l == latch) {
              stepDown("lost the leader latch");
            }
          }
        },
        owner);
    l.start();
  }

  /**
   * Gives up term {@code t} if this process still leads with it: steps down (the listener hears
   * {@code onDeposed}), leaves the election so that a standby can win it, and after {@code
   * rejoinAfterMs} joins again as a participant; with no other participant it leads again, in a new
   * term that starts from what ZooKeeper and storage hold. For a leader whose in-memory state can
   * no longer be trusted (its barrier loop halted on an unknown commit outcome): restarting the
   * process would do the same, but nobody has to. Returns at once; runs on the owner thread.
   */
  public void resign(LeaderTerm t, String reason, long rejoinAfterMs) {
    try {
      owner.execute(() -> resignNow(t, reason, rejoinAfterMs));
    } catch (java.util.concurrent.RejectedExecutionException closed) {
      // closing: the process leaves the election anyway
    }
  }

  private void resignNow(LeaderTerm t, String reason, long rejoinAfterMs) {
    if (!(state instanceof Leading leading) || !leading.term().equals(t)) {
      return; // already deposed, or a later term: nothing to give up
    }
    stepDown("resigned: " + reason);
    LeaderLatch old = latch;
    LeaderLatch next = new LeaderLatch(client, paths.leaderLatch(), participantId);
    latch = next; // callbacks of the old latch are ignored from here on
    try {
      old.close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("meta {} resigning: closing the leader latch failed", participantId, e);
    }
    sleepQuietly(rejoinAfterMs);
    if (closing || state instanceof Closed) {
      return;
    }
    try {
      join(next);
      LOG.info("meta {} rejoined the election after resigning epoch {}", participantId, t.epoch());
    } catch (Exception e) {
      LOG.error("meta {} could not rejoin the election after resigning", participantId, e);
    }
  }

  /** The current term, empty unless this process leads right now. */
  public Optional<LeaderTerm> currentTerm() {
    return term.get();
  }

  public boolean isLeader() {
    return term.get().isPresent();
  }

  public String participantId() {
    return participantId;
  }

  /** The latch participant currently leading, as ZooKeeper sees it (may lag a failover). */
  public Optional<String> leaderParticipant() {
    try {
      String id = latch.getLeader().getId();
      return id.isEmpty() ? Optional.empty() : Optional.of(id);
    } catch (Exception e) {
      return Optional.empty();
    }
  }

  private void onLatchWon() {
    if (state instanceof Closed) {
      return;
    }
    for (int attempt = 1; latch.hasLeadership(); attempt++) {
      try {
        LeaderTerm t = claimEpoch();
        state = new Leading(t);
        term.set(Optional.of(t));
        LOG.info("meta {} leads with epoch {}", participantId, t.epoch());
        listener.onElected(t);
        return;
      } catch (Exception e) {
        LOG.warn(
            "meta {} could not claim the leader epoch (attempt {})", participantId, attempt, e);
        if (e instanceof InterruptedException || attempt >= 50) {
          return;
        }
        sleepQuietly(100);
      }
    }
  }

  /** Bumps the epoch znode's version and publishes our address, in one multi-op. */
  private LeaderTerm claimEpoch() throws Exception {
    String ourPath = latch.getOurPath();
    Checks.checkState(ourPath != null, "meta %s won the latch without a latch path", participantId);
    Stat epochStat = client.checkExists().forPath(paths.leaderEpoch());
    if (epochStat == null) {
      try {
        client.create().creatingParentsIfNeeded().forPath(paths.leaderEpoch(), new byte[0]);
      } catch (KeeperException.NodeExistsException raced) {
        // another process created it first; fine
      }
      epochStat = client.checkExists().forPath(paths.leaderEpoch());
    }
    int next = epochStat.getVersion() + 1;
    LeaderInfo published = new LeaderInfo(info.address(), info.httpAddress(), next);
    TransactionOp t = client.transactionOp();
    List<CuratorOp> ops = new ArrayList<>();
    ops.add(t.check().forPath(ourPath));
    ops.add(
        t.setData()
            .withVersion(epochStat.getVersion())
            .forPath(paths.leaderEpoch(), Integer.toString(next).getBytes()));
    if (client.checkExists().forPath(paths.leaderAddress()) != null) {
      ops.add(t.delete().forPath(paths.leaderAddress()));
    }
    ops.add(
        t.create()
            .withMode(CreateMode.EPHEMERAL)
            .forPath(paths.leaderAddress(), published.encode()));
    client.transaction().forOperations(ops);
    return new LeaderTerm(next, ourPath);
  }

  private void onConnectionState(CuratorFramework c, ConnectionState s) {
    if (s == ConnectionState.SUSPENDED || s == ConnectionState.LOST) {
      Optional<LeaderTerm> old = term.getAndSet(Optional.empty());
      if (old.isPresent()) {
        LOG.warn("meta {} connection {}: term {} void", participantId, s, old.get().epoch());
        owner.execute(() -> stepDown("ZooKeeper connection " + s));
      }
    }
  }

  private void stepDown(String reason) {
    term.set(Optional.empty());
    if (state instanceof Leading leading) {
      state = new Standby();
      if ("closed".equals(reason)) {
        LOG.info("meta {} steps down from epoch {}: closed", participantId, leading.term().epoch());
      } else {
        LOG.warn(
            "meta {} steps down from epoch {}: {}", participantId, leading.term().epoch(), reason);
      }
      listener.onDeposed(leading.term(), reason);
    }
  }

  /** Leaves the election; the listener hears {@code onDeposed} first if this process led. */
  @Override
  public void close() throws IOException {
    closing = true;
    term.set(Optional.empty());
    client.getConnectionStateListenable().removeListener(connectionListener);
    try {
      latch.close();
    } catch (IllegalStateException notStarted) {
      // resigned and not yet rejoined: the latch was never started
    } finally {
      try {
        owner
            .submit(
                () -> {
                  stepDown("closed");
                  state = new Closed();
                })
            .get(10, TimeUnit.SECONDS);
      } catch (Exception e) {
        LOG.warn("meta {} close: owner thread did not answer", participantId, e);
      }
      owner.shutdown();
    }
  }

  private void sleepQuietly(long ms) {
    try {
      clock.sleepMillis(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

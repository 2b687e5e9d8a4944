package dev.tideway.meta.cluster;

import dev.tideway.common.check.Checks;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.MetaStoreException;
import dev.tideway.protocol.store.MetaStoreException.Reason;
import dev.tideway.protocol.store.MetaStoreReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;

/**
 * The metadata store: reads are plain, every write is a ZooKeeper multi-op fenced on the leader's
 * term.
 *
 * <p>Fencing: each {@link #commit} first checks, in this JVM, that {@code term} is the elector's
 * current term (a leader that saw SUSPENDED/LOST has none), then sends one multi-op whose first two
 * ops are {@code check(leader/epoch, term.epoch)} and {@code check(term.latchPath)}. A newer leader
 * has bumped the epoch's version; an expired session has lost its ephemeral latch znode. Either
 * makes ZooKeeper reject the whole multi-op, so nothing of a deposed leader's write is visible.
 *
 * <p>NOTE for maintainers: a {@link Reason#UNKNOWN_OUTCOME} (connection loss mid-write, session
 * expiry mid-write) means the multi-op may have been applied. Callers must re-read and reconcile;
 * never undo or clean up on that path.
 *
 * <p>Thread confinement: stateless apart from the Curator client (thread-safe); writes are issued
 * by the leader's owner thread, which is the only writer of a term.
 */
public final class FencedMetaStore extends MetaStoreReader {
  /** Hit just before the fenced multi-op is sent (tests pause a leader here). */
  public static final String FP_BEFORE_COMMIT = FailPoints.declare("meta.store.before-commit");

  private final CuratorFramework client;
  private final MetaPaths paths;
  private final Supplier<Optional<LeaderTerm>> currentTerm;

  /**
   * @param currentTerm this process's current term as the elector knows it (empty when not leader)
   */
  public FencedMetaStore(
      CuratorFramework client, MetaPaths paths, Supplier<Optional<LeaderTerm>> currentTerm) {
    super(client, paths);
    this.client = client;
    this.paths = paths;
    this.currentTerm = currentTerm;
  }

  /** Creates the persistent parent znodes if absent (idempotent, not fenced: they hold no data). */
  public void ensureLayout() {
    for (String p : paths.persistentParents()) {
      try {
        client.create().orSetData().creatingParentsIfNeeded().forPath(p);
      } catch (Exception e) {
        throw classify("create parent " + p, e);
      }
    }
  }

  /** Applies {@code writes} atomically if {@code term} is still the current leader term. */
  public void commit(LeaderTerm term, List<MetaWrite> writes) {
    Optional<LeaderTerm> current = currentTerm.get();
    if (current.isEmpty() || !current.get().equals(term)) {
      throw new MetaStoreException(
          Reason.FENCED,
          "term " + term + " is not this process's current term " + current.orElse(null),
          null);
    }
    sendFenced(term, writes);
  }

  /** The ZooKeeper half of {@link #commit}, without the local check (tests prove it alone). */
  void sendFenced(LeaderTerm term, List<MetaWrite> writes) {
    Checks.checkArgument(!writes.isEmpty(), "empty metadata commit for term %s", term);
    FailPoints.hit(FP_BEFORE_COMMIT);
    List<CuratorOp> ops = new ArrayList<>();
    TransactionOp t = client.transactionOp();
    try {
      ops.add(t.check().withVersion(term.epoch()).forPath(paths.leaderEpoch()));
      ops.add(t.check().forPath(term.latchPath()));
      for (MetaWrite w : writes) {
        addOp(t, ops, w);
      }
      client.transaction().forOperations(ops);
    } catch (KeeperException.BadVersionException | KeeperException.NoNodeException e) {
      if (fencingCheckFailed(e)) {
        throw new MetaStoreException(
            Reason.FENCED, "ZooKeeper rejected a write of deposed term " + term, e);
      }
      throw classify("commit of " + writes.size() + " writes in term " + term, e);
    } catch (Exception e) {
      throw classify("commit of " + writes.size() + " writes in term " + term, e);
    }
  }

  private void addOp(TransactionOp t, List<CuratorOp> ops, MetaWrite w) throws Exception {
    boolean exists = client.checkExists().forPath(w.path()) != null;
    if (w instanceof MetaWrite.Put put) {
      ops.add(
          exists
              ? t.setData().forPath(put.path(), put.data())
              : t.create().withMode(CreateMode.PERSISTENT).forPath(put.path(), put.data()));
    } else if (exists) {
      ops.add(t.delete().forPath(w.path()));
    }
  }

  private static boolean fencingCheckFailed(KeeperException e) {
    List<OpResult> results = e.getResults();
    if (results == null || results.size() < 2) {
      return true;
    }
    for (int i = 0; i < 2; i++) {
      if (results.get(i) instanceof OpResult.ErrorResult err
          && err.getErr() != KeeperException.Code.OK.intValue()
          && err.getErr() != KeeperException.Code.RUNTIMEINCONSISTENCY.intValue()) {
        return true;
      }
    }
    return false;
  }
}

package dev.tideway.storage.version;

import dev.tideway.common.check.Checks;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.TableStats;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Owns the current {@link Version}: every change is a {@link VersionDelta} that is validated
 * (applied in memory), persisted (the commit point), then published by swapping one volatile
 * reference and announced to listeners. {@link #commitEpoch} is the only way written data becomes
 * visible to committed reads.
 *
 * <p>Thread confinement: every mutating method runs on one owner thread (the engine's {@code
 * storage-version} thread); {@link #current()} may be read from any thread.
 *
 * <p>WARNING: if persisting a delta fails ambiguously (the store may or may not hold it), do not
 * clean up: the manager re-reads the delta log; if the delta is there, the change is committed and
 * published; if not, it is not. If even that fails, the manager refuses every further change
 * ({@link StorageException.Reason#OBJECT_STORE}) until reopened from the store.
 */
public final class VersionManager {
  public static final String FP_BEFORE_PERSIST =
      FailPoints.declare("version.commit.before-persist");
  public static final String FP_AFTER_PERSIST = FailPoints.declare("version.commit.after-persist");

  private final VersionStore store;
  private volatile Version current;
  private final List<Consumer<Version>> listeners = new CopyOnWriteArrayList<>();
  private boolean broken;

  private VersionManager(VersionStore store, Version recovered) {
    this.store = store;
    this.current = recovered;
  }

  /** Recovers the last committed version from the store. */
  public static VersionManager open(VersionStore store) {
    try {
      return new VersionManager(store, store.recover());
    } catch (IOException e) {
      throw new StorageException(StorageException.Reason.OBJECT_STORE, "cannot recover version", e);
    }
  }

  public Version current() {
    return current;
  }

  /** Called on the owner thread after each published version. */
  public void addListener(Consumer<Version> listener) {
    listeners.add(listener);
  }

  /**
   * Commits epoch {@code epoch}: its SSTs enter L0 and the stats delta is added to the version's
   * stats. The epoch must be above the committed one.
   */
  public Version commitEpoch(long epoch, List<SstInfo> ssts, Map<Integer, TableStats> statsDelta) {
    Version v = current;
    if (epoch <= v.maxCommittedEpoch()) {
      throw new StorageException(
          StorageException.Reason.PROTOCOL,
          "commit of epoch " + epoch + " at or below the committed epoch " + v.maxCommittedEpoch());
    }
    long maxId = v.maxSstId();
    for (SstInfo s : ssts) {
      Checks.checkArgument(
          s.maxEpoch() <= Epochs.visibleUpTo(epoch)
              && s.minEpoch() > Epochs.visibleUpTo(v.maxCommittedEpoch()),
          "commit of epoch %s: %s holds epochs outside (%s, %s]",
          epoch,
          s,
          v.maxCommittedEpoch(),
          epoch);
      maxId = Math.max(maxId, s.id());
    }
    List<VersionDelta.LevelChange> changes =
        ssts.isEmpty()
            ? List.of()
            : List.of(new VersionDelta.LevelChange(0, List.of(), sortedNewestFirst(ssts)));
    return apply(
        new VersionDelta(
            v.id() + 1,
            VersionDelta.Kind.COMMIT,
            epoch,
            v.safeEpoch(),
            changes,
            statsDelta,
            Map.of(),
            maxId));
  }

  private static List<SstInfo> sortedNewestFirst(List<SstInfo> ssts) {
    return ssts.stream().sorted((a, b) -> Long.compare(b.maxEpoch(), a.maxEpoch())).toList();
  }

  /** Applies a compaction: removes its inputs, adds its outputs, subtracts what it dropped. */
  public Version applyCompaction(
      List<VersionDelta.LevelChange> changes, Map<Integer, TableStats> statsDelta, long safeEpoch) {
    Version v = current;
    long maxId = v.maxSstId();
    for (VersionDelta.LevelChange c : changes) {
      for (SstInfo s : c.added()) {
        maxId = Math.max(maxId, s.id());
      }
    }
    return apply(
        new VersionDelta(
            v.id() + 1,
            VersionDelta.Kind.COMPACTION,
            v.maxCommittedEpoch(),
            Math.max(v.safeEpoch(), safeEpoch),
            changes,
            statsDelta,
            Map.of(),
            maxId));
  }

  /**
   * Starts retaining the change log of {@code table} from {@code fromEpoch}, or moves its start
   * forward (release up to an epoch); {@link VersionDelta#RELEASED} stops retaining it.
   */
  public Version setChangeLog(int table, long fromEpoch) {
    Version v = current;
    return apply(
        new VersionDelta(
            v.id() + 1,
            VersionDelta.Kind.CHANGE_LOG,
            v.maxCommittedEpoch(),
            v.safeEpoch(),
            List.of(),
            Map.of(),
            Map.of(table, fromEpoch),
            v.maxSstId()));
  }

  /**
   * Drops {@code tables}: their stats leave the version, every SST holding only keys of dropped
   * tables leaves it too (vacuum deletes the files), and compaction deletes their keys from the
   * SSTs they share with live tables. Idempotent: already dropped tables change nothing.
   *
   * @return the new version, or the current one when every table was dropped before
   */
  public Version dropTables(java.util.Set<Integer> tables) {
    Version v = current;
    java.util.Set<Integer> fresh = new java.util.HashSet<>(tables);
    fresh.removeAll(v.droppedTables());
    if (fresh.isEmpty()) {
      return v;
    }
    java.util.Set<Integer> all = new java.util.HashSet<>(v.droppedTables());
    all.addAll(fresh);
    List<VersionDelta.LevelChange> changes = new java.util.ArrayList<>();
    for (Level l : v.levels()) {
      List<Long> gone =
          l.ssts().stream().filter(s -> v.onlyDroppedKeys(s, all)).map(SstInfo::id).toList();
      if (!gone.isEmpty()) {
        changes.add(new VersionDelta.LevelChange(l.index(), gone, List.of()));
      }
    }
    return apply(
        new VersionDelta(
            v.id() + 1,
            VersionDelta.Kind.DROP_TABLES,
            v.maxCommittedEpoch(),
            v.safeEpoch(),
            changes,
            Map.of(),
            Map.of(),
            v.maxSstId(),
            fresh));
  }

  /**
   * Follows versions another process committed to the same store ({@link VersionStore#catchUp}),
   * publishing the newest. For followers, and for the owner between its commits (a new meta term
   * starts with it, on the thread that commits): a process that commits concurrently would race its
   * own deltas.
   *
   * <p>It also settles an unresolved commit outcome: after it the memory holds exactly what the
   * store holds (the delta whose write looked failed is in the log or not), so a manager stopped by
   * such an outcome commits again. Before, only a reopen of the store could, and a meta leader
   * whose commit had an unknown outcome halted every later term of the same process.
   */
  public Version refresh() {
    Version v = current;
    Version next;
    try {
      next = store.catchUp(v);
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot follow versions after " + v, e);
    }
    if (next.id() != v.id()) {
      publish(next);
    }
    broken = false;
    return next;
  }

  private Version apply(VersionDelta d) {
    if (broken) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE,
          "version manager stopped after an unresolved commit outcome; refresh or reopen the"
              + " store");
    }
    Version next = d.apply(current);
    try {
      FailPoints.hit(FP_BEFORE_PERSIST);
      store.writeDelta(d);
    } catch (IOException | RuntimeException e) {
      if (!reconcile(d)) {
        throw e instanceof RuntimeException re
            ? re
            : new StorageException(
                StorageException.Reason.OBJECT_STORE, "cannot persist version delta " + d.id(), e);
      }
    }
    try {
      FailPoints.hit(FP_AFTER_PERSIST);
    } catch (RuntimeException e) {
      // Persisted but not published: memory is behind the store; only a reopen may continue.
      broken = true;
      throw e;
    }
    publish(next);
    try {
      store.maybeCheckpoint(next);
    } catch (IOException | RuntimeException e) {
      // A missed checkpoint loses nothing: the deltas stay and recovery replays them.
    }
    return next;
  }

  /** After a failed write: true when the delta turns out to be committed. */
  private boolean reconcile(VersionDelta d) {
    try {
      VersionDelta stored = store.readDelta(d.id());
      if (stored == null) {
        return false;
      }
      Checks.checkState(stored.equals(d), "stored delta %s differs from the one written", d.id());
      return true;
    } catch (IOException | RuntimeException e) {
      broken = true;
      return false;
    }
  }

  private void publish(Version next) {
    current = next;
    for (Consumer<Version> l : listeners) {
      l.accept(next);
    }
  }
}

package dev.tideway.storage.version;

import dev.tideway.common.check.Checks;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.TableStats;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The change from version {@code id - 1} to version {@code id}: one per commit and one per
 * compaction (and one per change-log registration or release, and one per table drop). Pure data;
 * {@link #apply} makes the next version and checks every invariant it relies on (the removed SSTs
 * exist, the epoch rises, the sorted runs stay disjoint).
 */
public record VersionDelta(
    long id,
    Kind kind,
    long maxCommittedEpoch,
    long safeEpoch,
    List<LevelChange> changes,
    Map<Integer, TableStats> statsDelta,
    Map<Integer, Long> changeLogChanges,
    long maxSstId,
    Set<Integer> droppedTables) {

  /** Why the delta exists. Byte codes are persisted: never renumber. */
  public enum Kind {
    COMMIT(1),
    COMPACTION(2),
    CHANGE_LOG(3),
    /** Tables dropped: their stats go, SSTs holding only their keys leave the version. */
    DROP_TABLES(4);

    public final int code;

    Kind(int code) {
      this.code = code;
    }

    public static Kind of(int code) {
      for (Kind k : values()) {
        if (k.code == code) {
          return k;
        }
      }
      throw new IllegalArgumentException("unknown version delta kind " + code);
    }
  }

  /** SSTs removed from and added to one level. */
  public record LevelChange(int level, List<Long> removed, List<SstInfo> added) {
    public LevelChange {
      removed = List.copyOf(removed);
      added = List.copyOf(added);
    }
  }

  /** A change-log value meaning "no longer retained". */
  public static final long RELEASED = -1L;

  public VersionDelta {
    changes = List.copyOf(changes);
    statsDelta = Map.copyOf(statsDelta);
    changeLogChanges = Map.copyOf(changeLogChanges);
    droppedTables = Set.copyOf(droppedTables);
  }

  /** A delta that drops no table. */
  public VersionDelta(
      long id,
      Kind kind,
      long maxCommittedEpoch,
      long safeEpoch,
      List<LevelChange> changes,
      Map<Integer, TableStats> statsDelta,
      Map<Integer, Long> changeLogChanges,
      long maxSstId) {
    this(
        id,
        kind,
        maxCommittedEpoch,
        safeEpoch,
        changes,
        statsDelta,
        changeLogChanges,
        maxSstId,
        Set.of());
  }

  /** The next version; fails with an invariant violation when the delta does not fit {@code v}. */
  public Version apply(Version v) {
    Checks.checkState(id == v.id() + 1, "delta %s applied to version %s", id, v.id());
    Checks.checkState(
        maxCommittedEpoch >= v.maxCommittedEpoch() && safeEpoch >= v.safeEpoch(),
        "delta %s moves epochs back: committed %s -> %s, safe %s -> %s",
        id,
        v.maxCommittedEpoch(),
        maxCommittedEpoch,
        v.safeEpoch(),
        safeEpoch);
    List<List<SstInfo>> levels = new ArrayList<>();
    v.levels().forEach(l -> levels.add(new ArrayList<>(l.ssts())));
    for (LevelChange c : changes) {
      List<SstInfo> l = levels.get(c.level());
      Set<Long> removed = new HashSet<>(c.removed());
      int before = l.size();
      int firstRemoved = 0;
      while (firstRemoved < l.size() && !removed.contains(l.get(firstRemoved).id())) {
        firstRemoved++;
      }
      l.removeIf(s -> removed.contains(s.id()));
      Checks.checkState(
          before - l.size() == removed.size(),
          "delta %s removes SSTs %s from L%s of version %s, not all present",
          id,
          c.removed(),
          c.level(),
          v.id());
      if (c.level() == 0) {
        // L0 is newest first: a commit's SST goes first; an L0 merge's output takes the place of
        // the newest SST it merged (its inputs are adjacent, so the order stays newest first)
        l.addAll(removed.isEmpty() ? 0 : Math.min(firstRemoved, l.size()), c.added());
      } else {
        l.addAll(c.added());
        l.sort(Comparator.comparing(SstInfo::minKey, Keys.ORDER));
      }
    }
    List<Level> out = new ArrayList<>();
    for (int i = 0; i < levels.size(); i++) {
      out.add(new Level(i, levels.get(i)));
    }
    Set<Integer> dropped = new HashSet<>(v.droppedTables());
    dropped.addAll(droppedTables);
    Map<Integer, Long> logs = new HashMap<>(v.changeLogs());
    logs.keySet().removeAll(droppedTables);
    changeLogChanges.forEach(
        (t, e) -> {
          if (e == RELEASED) {
            logs.remove(t);
          } else {
            logs.put(t, e);
          }
        });
    // A dropped table's stats never come back: a late commit or a compaction that still counts its
    // keys changes nothing.
    Map<Integer, TableStats> stats = new HashMap<>(TableStats.sum(v.tableStats(), statsDelta));
    stats.keySet().removeAll(dropped);
    return new Version(
        id,
        maxCommittedEpoch,
        safeEpoch,
        out,
        stats,
        logs,
        Math.max(v.maxSstId(), maxSstId),
        dropped);
  }
}

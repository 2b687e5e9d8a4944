package dev.tideway.storage.version;

import dev.tideway.common.check.Checks;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.TableStats;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * An immutable snapshot of the LSM: which SSTs are live and at which level, up to which epoch data
 * is committed ({@code maxCommittedEpoch}), the oldest epoch reads may ask for ({@code safeEpoch}),
 * per-table stats, the tables whose change log is retained (table id → first epoch still readable
 * through {@code iterLog}), the largest SST id ever committed and the dropped tables (their stats
 * are gone, compaction deletes their keys; ids are never reused, so the set only grows). A new
 * version is made only by {@link VersionDelta#apply(Version)}; the current one is published by
 * swapping a single reference (see {@link VersionManager}).
 */
public record Version(
    long id,
    long maxCommittedEpoch,
    long safeEpoch,
    List<Level> levels,
    Map<Integer, TableStats> tableStats,
    Map<Integer, Long> changeLogs,
    long maxSstId,
    Set<Integer> droppedTables) {

  public static final int MAX_LEVELS = 4;

  public Version {
    levels = List.copyOf(levels);
    tableStats = Map.copyOf(tableStats);
    changeLogs = Map.copyOf(changeLogs);
    droppedTables = Set.copyOf(droppedTables);
    for (int t : droppedTables) {
      Checks.checkState(
          !tableStats.containsKey(t), "version %s has stats of dropped table %s", id, t);
    }
    Checks.checkState(levels.size() == MAX_LEVELS, "version %s has %s levels", id, levels.size());
    for (int i = 0; i < levels.size(); i++) {
      Checks.checkState(
          levels.get(i).index() == i, "version %s: level %s at %s", id, levels.get(i).index(), i);
      levels.get(i).validate();
    }
  }

  /** The empty version 0 of a new store. */
  public static Version empty() {
    List<Level> levels = new ArrayList<>();
    for (int i = 0; i < MAX_LEVELS; i++) {
      levels.add(new Level(i, List.of()));
    }
    return new Version(0, 0, 0, levels, Map.of(), Map.of(), 0, Set.of());
  }

  /** A version without dropped tables. */
  public Version(
      long id,
      long maxCommittedEpoch,
      long safeEpoch,
      List<Level> levels,
      Map<Integer, TableStats> tableStats,
      Map<Integer, Long> changeLogs,
      long maxSstId) {
    this(id, maxCommittedEpoch, safeEpoch, levels, tableStats, changeLogs, maxSstId, Set.of());
  }

  /** Whether {@code sst} holds keys of a dropped table (compaction must rewrite it). */
  public boolean holdsDroppedKeys(SstInfo sst) {
    return sst.tableStats().keySet().stream().anyMatch(droppedTables::contains);
  }

  /**
   * Whether every key of {@code sst} belongs to a dropped table (it can leave the version whole).
   */
  public boolean onlyDroppedKeys(SstInfo sst, Set<Integer> dropped) {
    return !sst.tableStats().isEmpty() && dropped.containsAll(sst.tableStats().keySet());
  }

  public Level level(int i) {
    return levels.get(i);
  }

  public List<SstInfo> allSsts() {
    List<SstInfo> out = new ArrayList<>();
    levels.forEach(l -> out.addAll(l.ssts()));
    return out;
  }

  public Set<Long> sstIds() {
    Set<Long> ids = new HashSet<>();
    levels.forEach(l -> l.ssts().forEach(s -> ids.add(s.id())));
    return ids;
  }

  public TableStats stats(int tableId) {
    return tableStats.getOrDefault(tableId, TableStats.ZERO);
  }

  /** SST count per level, for metrics and messages. */
  public Map<Integer, Integer> sstCountPerLevel() {
    Map<Integer, Integer> m = new TreeMap<>();
    levels.forEach(l -> m.put(l.index(), l.ssts().size()));
    return m;
  }

  @Override
  public String toString() {
    return "Version#"
        + id
        + "{committed="
        + maxCommittedEpoch
        + ", safe="
        + safeEpoch
        + ", ssts="
        + sstCountPerLevel()
        + "}";
  }
}

package dev.tideway.storage.compaction;

import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.version.Level;
import dev.tideway.storage.version.Version;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Decides what to compact, purely from a version. L0 → L1 when L0 has {@code l0Trigger} SSTs (all
 * of L0: compacting its oldest files alone would let older data sit above newer data); Ln → Ln+1
 * when Ln exceeds {@code levelBaseBytes × 10^(n-1)}, taking Ln's first SST and the Ln+1 SSTs it
 * overlaps. The output's key range never overlaps an untouched SST of the target level. When
 * nothing else is due, SSTs still holding keys of dropped tables are rewritten (all of L0 into L1,
 * or one SST of a deeper level in place) so their data leaves the store.
 */
public final class CompactionPicker {
  private final int l0Trigger;
  private final long levelBaseBytes;

  public CompactionPicker(int l0Trigger, long levelBaseBytes) {
    this.l0Trigger = l0Trigger;
    this.levelBaseBytes = levelBaseBytes;
  }

  public Optional<CompactionTask> pick(Version v, long safeEpoch) {
    if (v.level(0).ssts().size() >= l0Trigger) {
      return Optional.of(task(v, 0, v.level(0).ssts(), 1, safeEpoch));
    }
    long limit = levelBaseBytes;
    for (int n = 1; n < Version.MAX_LEVELS - 1; n++, limit *= 10) {
      Level l = v.level(n);
      if (!l.ssts().isEmpty() && l.totalBytes() > limit) {
        return Optional.of(task(v, n, List.of(l.ssts().get(0)), n + 1, safeEpoch));
      }
    }
    return cleanup(v, safeEpoch);
  }

  /**
   * A task that deletes dropped tables' keys: all of L0 into L1 when an L0 SST holds some (L0 files
   * overlap, so compacting part of L0 could put older data above newer), else the first such SST of
   * a deeper level rewritten into the same level (its output lies inside its own key range, so the
   * level's runs stay disjoint).
   */
  static Optional<CompactionTask> cleanup(Version v, long safeEpoch) {
    if (v.droppedTables().isEmpty()) {
      return Optional.empty();
    }
    if (v.level(0).ssts().stream().anyMatch(v::holdsDroppedKeys)) {
      return Optional.of(task(v, 0, v.level(0).ssts(), 1, safeEpoch));
    }
    for (int n = 1; n < Version.MAX_LEVELS; n++) {
      for (SstInfo s : v.level(n).ssts()) {
        if (v.holdsDroppedKeys(s)) {
          boolean bottom = true;
          for (int deeper = n + 1; deeper < Version.MAX_LEVELS; deeper++) {
            for (SstInfo d : v.level(deeper).ssts()) {
              bottom &= !d.overlaps(s);
            }
          }
          return Optional.of(
              new CompactionTask(
                  Map.of(n, List.of(s)), n, bottom, safeEpoch, v.changeLogs(), v.droppedTables()));
        }
      }
    }
    return Optional.empty();
  }

  /** Every SST of every level into the bottom level. Empty when there is nothing. */
  public static Optional<CompactionTask> full(Version v, long safeEpoch) {
    Map<Integer, List<SstInfo>> in = new TreeMap<>();
    for (Level l : v.levels()) {
      if (!l.ssts().isEmpty()) {
        in.put(l.index(), l.ssts());
      }
    }
    if (in.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new CompactionTask(
            in, Version.MAX_LEVELS - 1, true, safeEpoch, v.changeLogs(), v.droppedTables()));
  }

  private static CompactionTask task(
      Version v, int from, List<SstInfo> picked, int to, long safeEpoch) {
    byte[] min = picked.get(0).minKey();
    byte[] max = picked.get(0).maxKey();
    for (SstInfo s : picked) {
      min = Keys.compare(s.minKey(), min) < 0 ? s.minKey() : min;
      max = Keys.compare(s.maxKey(), max) > 0 ? s.maxKey() : max;
    }
    List<SstInfo> target = new ArrayList<>();
    for (SstInfo s : v.level(to).ssts()) {
      if (Keys.compare(s.minKey(), max) <= 0 && Keys.compare(min, s.maxKey()) <= 0) {
        target.add(s);
        min = Keys.compare(s.minKey(), min) < 0 ? s.minKey() : min;
        max = Keys.compare(s.maxKey(), max) > 0 ? s.maxKey() : max;
      }
    }
    Map<Integer, List<SstInfo>> in = new TreeMap<>();
    in.put(from, picked);
    if (!target.isEmpty()) {
      in.put(to, target);
    }
    KeyRange range = KeyRange.of(min, Keys.prefixEnd(max) == null ? null : appendZero(max));
    boolean bottom = true;
    for (int deeper = to + 1; deeper < Version.MAX_LEVELS; deeper++) {
      for (SstInfo s : v.level(deeper).ssts()) {
        bottom &= !s.overlaps(range);
      }
    }
    return new CompactionTask(in, to, bottom, safeEpoch, v.changeLogs(), v.droppedTables());
  }

  /** The smallest key after {@code k}: {@code k || 0x00}. */
  private static byte[] appendZero(byte[] k) {
    return java.util.Arrays.copyOf(k, k.length + 1);
  }
}

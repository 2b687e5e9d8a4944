package dev.tideway.storage.compaction;

import dev.tideway.storage.api.CompactionJob;
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
 * Decides what to compact, purely from a version.
 *
 * <p>L0 holds overlapping SSTs, newest first; each is a sorted run (a commit's SST, or the merge of
 * several newer ones). Once L0 has {@code l0Trigger} SSTs:
 *
 * <ol>
 *   <li><b>L0 → L1</b>, all of L0 (compacting only its oldest files would let older data sit above
 *       newer data), when L0's bytes reach L1's ({@link #L1_PER_L0}), or when L0 has {@code
 *       L0_MAX_RUNS_FACTOR × l0Trigger} SSTs (the bound on how many SSTs a point get probes).
 *       Merging L1 then costs at most about as many bytes as L0 brings in;
 *   <li>else <b>L0 → L0</b> (a tier merge, as RocksDB's universal compaction and Hummock's L0
 *       sub-level compaction do): the newest SSTs are merged into one while the next older SST is
 *       no larger than all the newer ones picked so far together, if that takes at least two. Every
 *       L0 SST is then larger than all newer ones together, so L0 holds O(log(L0 bytes / commit
 *       bytes)) SSTs;
 *   <li>else nothing for L0 until more commits arrive.
 * </ol>
 *
 * <p>Why: with keys spread over the whole key space (a join's state), every L0 SST overlaps every
 * L1 SST, and the old rule (all of L0 into L1 at {@code l0Trigger} SSTs) rewrote all of L1 every
 * few commits, so write amplification grew with the state (a model with equal commits and no
 * overwrites: 8 after 60 commits, 38 after 300; this rule: 2.7 and 4.3). Merging L0 among itself
 * until it is as large as L1 keeps it near log(state).
 *
 * <p>Ln → Ln+1 (n ≥ 1) when Ln exceeds {@code levelBaseBytes × 10^(n-1)}, taking Ln's first SST and
 * the Ln+1 SSTs it overlaps. The output's key range never overlaps an untouched SST of the target
 * level. When nothing else is due, SSTs still holding keys of dropped tables are rewritten (all of
 * L0 into L1, or one SST of a deeper level in place) so their data leaves the store.
 */
public final class CompactionPicker {
  /** L0 goes into L1 once its bytes reach L1's bytes divided by this. */
  static final long L1_PER_L0 = 1;

  /** L0 goes into L1 at this many times {@code l0Trigger} SSTs, whatever their sizes. */
  static final int L0_MAX_RUNS_FACTOR = 3;

  private final int l0Trigger;
  private final long levelBaseBytes;

  public CompactionPicker(int l0Trigger, long levelBaseBytes) {
    this.l0Trigger = l0Trigger;
    this.levelBaseBytes = levelBaseBytes;
  }

  public Optional<CompactionJob> pick(Version v, long safeEpoch) {
    List<SstInfo> l0 = v.level(0).ssts();
    if (l0.size() >= l0Trigger) {
      long l0Bytes = v.level(0).totalBytes();
      if (l0.size() >= L0_MAX_RUNS_FACTOR * l0Trigger
          || l0Bytes * L1_PER_L0 >= v.level(1).totalBytes()) {
        return Optional.of(task(v, 0, l0, 1, safeEpoch));
      }
      int merge = tierMergeWidth(l0);
      if (merge >= 2) {
        return Optional.of(
            new CompactionJob(
                Map.of(0, l0.subList(0, merge)),
                0,
                false,
                safeEpoch,
                v.changeLogs(),
                v.droppedTables()));
      }
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
   * How many of the newest L0 SSTs to merge into one: taken while the next older SST is no larger
   * than the ones taken so far together (the first is always taken).
   */
  static int tierMergeWidth(List<SstInfo> l0NewestFirst) {
    long taken = l0NewestFirst.get(0).fileSize();
    int n = 1;
    while (n < l0NewestFirst.size() && l0NewestFirst.get(n).fileSize() <= taken) {
      taken += l0NewestFirst.get(n).fileSize();
      n++;
    }
    return n;
  }

  /**
   * A task that deletes dropped tables' keys: all of L0 into L1 when an L0 SST holds some (L0 files
   * overlap, so compacting part of L0 could put older data above newer), else the first such SST of
   * a deeper level rewritten into the same level (its output lies inside its own key range, so the
   * level's runs stay disjoint).
   */
  static Optional<CompactionJob> cleanup(Version v, long safeEpoch) {
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
              new CompactionJob(
                  Map.of(n, List.of(s)), n, bottom, safeEpoch, v.changeLogs(), v.droppedTables()));
        }
      }
    }
    return Optional.empty();
  }

  /** Every SST of every level into the bottom level. Empty when there is nothing. */
  public static Optional<CompactionJob> full(Version v, long safeEpoch) {
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
        new CompactionJob(
            in, Version.MAX_LEVELS - 1, true, safeEpoch, v.changeLogs(), v.droppedTables()));
  }

  private static CompactionJob task(
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
    return new CompactionJob(in, to, bottom, safeEpoch, v.changeLogs(), v.droppedTables());
  }

  /** The smallest key after {@code k}: {@code k || 0x00}. */
  private static byte[] appendZero(byte[] k) {
    return java.util.Arrays.copyOf(k, k.length + 1);
  }
}

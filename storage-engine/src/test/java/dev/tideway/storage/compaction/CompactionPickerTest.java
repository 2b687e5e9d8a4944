package dev.tideway.storage.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.version.Level;
import dev.tideway.storage.version.Version;
import dev.tideway.storage.version.VersionDelta;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The picker's L0 decisions with every SST spanning the whole key space (a join's state): all of L0
 * goes into L1 only once L0 is as large as L1 (or holds too many SSTs); before that the newest L0
 * SSTs of similar size merge among themselves, and the merge's output takes their place in L0.
 */
class CompactionPickerTest {
  private static final int TRIGGER = 4;
  private static final long BASE = Long.MAX_VALUE / 2; // no L1 -> L2 compaction here
  private final CompactionPicker picker = new CompactionPicker(TRIGGER, BASE);
  private long nextId = 1;

  @Test
  void belowTheTriggerNothingIsPicked() {
    assertThat(picker.pick(version(l0(10, 10, 10), List.of()), 0)).isEmpty();
  }

  @Test
  void l0GoesIntoAnEmptyL1AtTheTrigger() {
    Version v = version(l0(10, 10, 10, 10), List.of());
    CompactionJob t = picker.pick(v, 0).orElseThrow();
    assertThat(t.targetLevel()).isEqualTo(1);
    assertThat(t.inputs().get(0)).containsExactlyElementsOf(v.level(0).ssts());
  }

  @Test
  void newestL0SstsOfSimilarSizeMergeAmongThemselvesWhileL1IsLarger() {
    Version v = version(l0(10, 10, 10, 10), List.of(sst(1_000)));
    CompactionJob t = picker.pick(v, 0).orElseThrow();
    assertThat(t.targetLevel()).isZero();
    assertThat(t.bottom()).as("older versions may sit below an L0 merge").isFalse();
    assertThat(t.inputs()).containsOnlyKeys(0);
    assertThat(t.inputs().get(0)).containsExactlyElementsOf(v.level(0).ssts());
  }

  @Test
  void anL0MergeStopsAtAnSstLargerThanTheNewerOnesTogether() {
    Version v = version(l0(10, 10, 10, 100, 400), List.of(sst(10_000)));
    CompactionJob t = picker.pick(v, 0).orElseThrow();
    assertThat(t.targetLevel()).isZero();
    assertThat(t.inputs().get(0)).containsExactlyElementsOf(v.level(0).ssts().subList(0, 3));
  }

  @Test
  void geometricallyGrowingL0WaitsForMoreCommits() {
    // each SST is larger than all newer ones together: merging would rewrite the big ones
    assertThat(picker.pick(version(l0(10, 30, 90, 270), List.of(sst(10_000))), 0)).isEmpty();
  }

  @Test
  void l0GoesIntoL1OnceItIsAsLargeAsL1() {
    Version v = version(l0(10, 30, 90, 270), List.of(sst(200), sst(200)));
    CompactionJob t = picker.pick(v, 0).orElseThrow();
    assertThat(t.targetLevel()).isEqualTo(1);
    assertThat(t.inputs().get(0)).hasSize(4);
    assertThat(t.inputs().get(1)).hasSize(2);
  }

  @Test
  void l0GoesIntoL1AtTheSstCountBoundWhateverTheSizes() {
    long[] sizes = new long[CompactionPicker.L0_MAX_RUNS_FACTOR * TRIGGER];
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = 1L << (2 * i); // never mergeable among themselves
    }
    Version v = version(l0(sizes), List.of(sst(Long.MAX_VALUE / 4)));
    assertThat(picker.pick(v, 0).orElseThrow().targetLevel()).isEqualTo(1);
    Version fewer =
        version(
            l0(java.util.Arrays.copyOf(sizes, sizes.length - 1)), List.of(sst(Long.MAX_VALUE / 4)));
    assertThat(picker.pick(fewer, 0)).isEmpty();
  }

  @Test
  void anL0MergeOutputTakesThePlaceOfItsNewestInputEvenAfterANewerCommit() {
    Version v = version(l0(10, 10, 10, 10, 500), List.of(sst(10_000)));
    CompactionJob t = picker.pick(v, 0).orElseThrow();
    List<Long> merged = t.inputs().get(0).stream().map(SstInfo::id).toList();
    assertThat(merged).hasSize(4);
    SstInfo newer = sst(10);
    Version committed =
        new VersionDelta(
                v.id() + 1,
                VersionDelta.Kind.COMMIT,
                2,
                0,
                List.of(new VersionDelta.LevelChange(0, List.of(), List.of(newer))),
                Map.of(),
                Map.of(),
                newer.id())
            .apply(v);
    SstInfo out = sst(40);
    Version compacted =
        new VersionDelta(
                committed.id() + 1,
                VersionDelta.Kind.COMPACTION,
                2,
                0,
                List.of(new VersionDelta.LevelChange(0, merged, List.of(out))),
                Map.of(),
                Map.of(),
                out.id())
            .apply(committed);
    SstInfo oldest = v.level(0).ssts().get(4);
    assertThat(compacted.level(0).ssts()).containsExactly(newer, out, oldest);
  }

  @Test
  void tierMergeWidthTakesWhileTheNextIsNoLargerThanTheTaken() {
    assertThat(CompactionPicker.tierMergeWidth(l0(5, 1, 1, 1))).isEqualTo(4);
    assertThat(CompactionPicker.tierMergeWidth(l0(1, 1, 2, 4, 9))).isEqualTo(4);
    assertThat(CompactionPicker.tierMergeWidth(l0(1, 2))).isEqualTo(1);
  }

  /** L0 SSTs of the given sizes, newest first, each spanning the whole key space. */
  private List<SstInfo> l0(long... sizes) {
    List<SstInfo> out = new ArrayList<>();
    for (long s : sizes) {
      out.add(sst(s));
    }
    return out;
  }

  private SstInfo sst(long size) {
    long id = nextId++;
    return new SstInfo(
        id,
        size,
        0,
        Keys.key(1, 0, new byte[] {0}),
        Keys.key(1, 255, new byte[] {(byte) 0xFF}),
        1,
        1,
        1,
        0,
        Map.of());
  }

  /** A version with {@code l0} and one sorted run {@code l1} (disjoint keys made up here). */
  private Version version(List<SstInfo> l0, List<SstInfo> l1Sizes) {
    List<SstInfo> l1 = new ArrayList<>();
    for (int i = 0; i < l1Sizes.size(); i++) {
      SstInfo s = l1Sizes.get(i);
      l1.add(
          new SstInfo(
              s.id(),
              s.fileSize(),
              0,
              Keys.key(1, i, new byte[] {0}),
              Keys.key(1, i, new byte[] {1}),
              1,
              1,
              1,
              0,
              Map.of()));
    }
    List<Level> levels = new ArrayList<>();
    levels.add(new Level(0, l0));
    levels.add(new Level(1, l1));
    for (int i = 2; i < Version.MAX_LEVELS; i++) {
      levels.add(new Level(i, List.of()));
    }
    return new Version(1, 1, 0, levels, Map.of(), Map.of(), nextId, java.util.Set.of());
  }
}

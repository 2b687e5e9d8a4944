package dev.tideway.storage.version;

import dev.tideway.common.check.Checks;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import java.util.List;

/**
 * One level of a version. L0 holds overlapping SSTs, newest commit first. L1 and deeper are sorted
 * runs: SSTs ordered by key, their key ranges disjoint ({@link #validate()} checks it on every
 * version built).
 */
public record Level(int index, List<SstInfo> ssts) {
  public Level {
    ssts = List.copyOf(ssts);
  }

  public long totalBytes() {
    return ssts.stream().mapToLong(SstInfo::fileSize).sum();
  }

  /** Checks the sorted-run invariant of L1+. */
  public void validate() {
    if (index == 0) {
      return;
    }
    for (int i = 1; i < ssts.size(); i++) {
      SstInfo a = ssts.get(i - 1);
      SstInfo b = ssts.get(i);
      Checks.checkState(
          Keys.compare(a.maxKey(), b.minKey()) < 0,
          "L%s is not a sorted run: %s overlaps or precedes %s. This is a bug.",
          index,
          a,
          b);
    }
  }
}

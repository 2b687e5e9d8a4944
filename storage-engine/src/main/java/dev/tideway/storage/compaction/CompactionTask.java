package dev.tideway.storage.compaction;

import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.SstInfo;
import java.util.List;
import java.util.Map;

/**
 * One compaction: merge {@code inputs} (level → SSTs) into {@code targetLevel}. Versions at or
 * below {@code safeEpoch} collapse to the newest one per key (tables with a retained change log use
 * {@code min(safeEpoch, retainFrom - 1)}); tombstones go too when {@code bottom} (no deeper level
 * holds keys of the task's range).
 */
public record CompactionTask(
    Map<Integer, List<SstInfo>> inputs,
    int targetLevel,
    boolean bottom,
    long safeEpoch,
    Map<Integer, Long> changeLogs) {
  public CompactionTask {
    inputs = Map.copyOf(inputs);
    changeLogs = Map.copyOf(changeLogs);
  }

  /** The task a public {@link CompactionJob} describes. */
  public static CompactionTask of(CompactionJob job) {
    return new CompactionTask(
        job.inputs(), job.targetLevel(), job.bottom(), job.safeEpoch(), job.changeLogs());
  }

  /** This task in the public API's terms (to send to the node that runs it). */
  public CompactionJob toJob() {
    return new CompactionJob(inputs, targetLevel, bottom, safeEpoch, changeLogs);
  }

  public long inputBytes() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::fileSize).sum();
  }

  public long inputRows() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::rowCount).sum();
  }
}

package dev.tideway.storage.api;

import java.util.List;
import java.util.Map;

/**
 * One compaction the version owner asks a node to run ({@link StateStore#compact}): merge {@code
 * inputs} (level → SSTs) into {@code targetLevel}. Key versions at or below {@code safeEpoch}
 * collapse to the newest per key (tables with a retained change log keep theirs from {@code
 * changeLogs}); tombstones go too when {@code bottom}. Plain data, safe to send over the wire.
 *
 * @param taskId chosen by the owner; echoed in the result
 * @param versionId the version the task was picked from (for logs)
 */
public record CompactionRequest(
    long taskId,
    long versionId,
    Map<Integer, List<SstInfo>> inputs,
    int targetLevel,
    boolean bottom,
    long safeEpoch,
    Map<Integer, Long> changeLogs) {
  public CompactionRequest {
    inputs = Map.copyOf(inputs);
    changeLogs = Map.copyOf(changeLogs);
  }

  public long inputBytes() {
    return inputs.values().stream().flatMap(List::stream).mapToLong(SstInfo::fileSize).sum();
  }

  public int inputCount() {
    return inputs.values().stream().mapToInt(List::size).sum();
  }
}

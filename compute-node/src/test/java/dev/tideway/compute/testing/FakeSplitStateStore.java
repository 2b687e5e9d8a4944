package dev.tideway.compute.testing;

import dev.tideway.common.check.Checks;
import dev.tideway.compute.executor.source.SplitStateStore;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * An in-memory {@link SplitStateStore} with the storage engine's commit model. Fault model: {@link
 * #crash()} loses every offset persisted under an epoch above the last {@link #commit}, as a node
 * failure loses uncommitted state; committed offsets survive.
 */
public final class FakeSplitStateStore implements SplitStateStore {
  /** Per split: epoch to offset persisted under it. */
  private final Map<String, TreeMap<Long, Long>> writes = new HashMap<>();

  private long committed;

  @Override
  public OptionalLong restore(String splitId) {
    TreeMap<Long, Long> w = writes.get(splitId);
    if (w == null) {
      return OptionalLong.empty();
    }
    Map.Entry<Long, Long> e = w.floorEntry(committed);
    return e == null ? OptionalLong.empty() : OptionalLong.of(e.getValue());
  }

  @Override
  public void persist(long epoch, String splitId, long nextOffset) {
    Checks.checkState(
        epoch > committed,
        "split %s persisted under epoch %s <= committed %s",
        splitId,
        epoch,
        committed);
    writes.computeIfAbsent(splitId, s -> new TreeMap<>()).put(epoch, nextOffset);
  }

  /** Epochs up to {@code epoch} become durable. */
  public void commit(long epoch) {
    committed = Math.max(committed, epoch);
  }

  /** Drops everything persisted after the last committed epoch. */
  public void crash() {
    writes.values().forEach(w -> w.tailMap(committed, false).clear());
  }

  public long committedEpoch() {
    return committed;
  }
}

package dev.tideway.barrier.control;

import java.util.List;

/**
 * What a node's state store returned for a checkpoint sync: the SSTs it wrote (opaque here: the
 * storage engine's type) and the per-table stats they add.
 *
 * @param <S> the storage engine's SST info type
 */
public record SyncResult<S>(List<S> ssts, List<TableStatsDelta> statsDeltas) {
  public SyncResult {
    ssts = List.copyOf(ssts);
    statsDeltas = List.copyOf(statsDeltas);
  }

  public static <S> SyncResult<S> empty() {
    return new SyncResult<>(List.of(), List.of());
  }
}

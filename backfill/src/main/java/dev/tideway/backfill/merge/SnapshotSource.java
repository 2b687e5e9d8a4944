package dev.tideway.backfill.merge;

import dev.tideway.backfill.core.SnapshotReader;
import dev.tideway.backfill.core.UpstreamReplica;
import dev.tideway.barrier.message.Barrier;

/**
 * The snapshot an upstream-merge backfill reads: the upstream table as of the read epoch, which is
 * the {@code prev} of the last barrier. Arrangement backfill reads committed data plus a replica of
 * the uncommitted upstream changes; no-shuffle backfill reads the node's shared buffer.
 */
public interface SnapshotSource extends SnapshotReader, AutoCloseable {
  /** The first barrier: the read epoch becomes its {@code prev}. */
  void start(Barrier first);

  /** The replica of upstream changes the merge loop keeps (arrangement reads merge it). */
  default void bindReplica(UpstreamReplica replica) {}

  /** A later barrier: the read epoch becomes its {@code prev}. */
  void onBarrier(Barrier b);

  /** The epoch snapshot reads see. */
  @Override
  long readEpoch();

  /** False while the snapshot at the read epoch cannot be read yet. */
  boolean readable();

  @Override
  void close();
}

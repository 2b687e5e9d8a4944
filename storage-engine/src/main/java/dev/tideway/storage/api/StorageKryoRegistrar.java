package dev.tideway.storage.api;

import dev.tideway.common.serde.KryoIdRange;
import dev.tideway.common.serde.KryoRegistrar;
import dev.tideway.common.serde.KryoRegistrations;

/**
 * The storage engine's Kryo registrations (listed in {@code META-INF/services}): the SSTs and
 * statistics a node's checkpoint reports, and the compaction tasks meta sends a node and the
 * outcomes it answers. Ids are fixed and never reused.
 *
 * <pre>
 * 400 SstInfo           403 CompactionOutcome
 * 401 TableStats        404 CompactionOutcome.LevelEdit
 * 402 CompactionJob
 * </pre>
 */
public final class StorageKryoRegistrar implements KryoRegistrar {
  @Override
  public KryoIdRange range() {
    return KryoIdRange.STORAGE_ENGINE;
  }

  @Override
  public void register(KryoRegistrations r) {
    r.addRecord(400, SstInfo.class);
    r.addRecord(401, TableStats.class);
    r.addRecord(402, CompactionJob.class);
    r.addRecord(403, CompactionOutcome.class);
    r.addRecord(404, CompactionOutcome.LevelEdit.class);
  }
}

/**
 * What every backfill kind shares: {@link dev.tideway.backfill.core.BackfillContext} and {@link
 * dev.tideway.backfill.core.BackfillOptions} (how an executor is built), {@link
 * dev.tideway.backfill.core.SnapshotScan} (per-vnode positions and the pk-ordered snapshot read
 * through a {@link dev.tideway.backfill.core.SnapshotReader}) and {@link
 * dev.tideway.backfill.core.ChunkMarker} (hides upstream rows the snapshot has not reached).
 */
package dev.tideway.backfill.core;

/**
 * The persisted side of backfill: {@link dev.tideway.backfill.state.VnodeProgress} (per-vnode state
 * machine), {@link dev.tideway.backfill.state.BackfillStateTable} (its layout in the StreamScan's
 * state table, written at every barrier and committed with the checkpoint) and {@link
 * dev.tideway.backfill.state.UpstreamTable} (the upstream table's key, vnode and value codecs).
 *
 * <p>Invariant: what is persisted in epoch E describes exactly what the executor emitted up to the
 * barrier closing E, so recovery from a committed epoch resumes where that epoch left off.
 */
package dev.tideway.backfill.state;

/**
 * The messages between the meta leader and a compute node's local barrier manager: {@link
 * dev.tideway.barrier.control.InjectBarrier} going down; {@link
 * dev.tideway.barrier.control.BarrierCompleted} (with the synced SSTs, the per-table stats delta
 * and the epoch's progress reports) and {@link dev.tideway.barrier.control.NodeFailure} coming
 * back. Kept apart from {@code message}, which holds what flows through actors, so the in-stream
 * protocol depends on nothing but epochs and the progress package can use mutations without a
 * package cycle.
 */
package dev.tideway.barrier.control;

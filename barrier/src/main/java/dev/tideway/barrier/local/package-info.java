/**
 * The compute-node end of the protocol: {@link dev.tideway.barrier.local.LocalBarrierManager}
 * receives injected barriers, hands them to the node's root actors, collects them from every actor
 * (paired checks on issue and collect), keeps each epoch's progress reports, asks its environment
 * to sync a checkpoint, and reports {@code BarrierCompleted} strictly in epoch order. All side
 * effects go through {@link dev.tideway.barrier.local.LocalBarrierEnvironment}.
 */
package dev.tideway.barrier.local;

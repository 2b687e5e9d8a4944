package dev.tideway.barrier.local;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.message.Barrier;

/**
 * The side effects of a {@link LocalBarrierManager}, implemented by the compute node shell (actor
 * mailboxes, the state store, the control stream to meta) and scripted by tests and the simulation.
 * Calls happen on the manager's owner thread and must not block: a sync is requested here and its
 * result comes back later through {@link LocalBarrierManager#onSyncCompleted}.
 *
 * @param <S> the storage engine's SST info type
 */
public interface LocalBarrierEnvironment<S> {
  /** Pushes {@code barrier} into the barrier inbox of root actor {@code actorId}. */
  void sendBarrier(int actorId, Barrier barrier);

  /** Starts syncing the sealed state up to {@code request.epoch().prev()} for a checkpoint. */
  void sync(SyncRequest request);

  /** Sends a completion to meta. */
  void completed(BarrierCompleted<S> completed);

  /** Tells meta that an actor failed and these epochs are lost. */
  void failed(NodeFailure failure);
}

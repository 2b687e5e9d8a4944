package dev.tideway.compute.actor;

import dev.tideway.barrier.message.Barrier;

/**
 * Where a {@link StreamActor} reports what happened on its thread. The node's implementation only
 * enqueues to the node's control loop (it must never block the actor thread for long), so every
 * method may be called from any actor thread.
 */
public interface ActorReporter {
  /** The actor's root executor emitted {@code barrier}: the actor collected it. */
  void barrierCollected(int actorId, Barrier barrier);

  /**
   * The actor ended: after collecting a barrier that stops it ({@code stopped}) or because its root
   * returned end-of-stream (finite test sources).
   */
  void actorExited(int actorId, boolean stopped);

  /** The actor's chain threw; the actor thread has ended. */
  void actorFailed(int actorId, Throwable cause);
}

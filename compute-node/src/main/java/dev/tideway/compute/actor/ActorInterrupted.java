package dev.tideway.compute.actor;

/**
 * Thrown from an executor's {@code next()} when its actor thread was interrupted while blocked: the
 * node is dropping the actor. {@link StreamActor} treats it as a quiet exit when it asked for the
 * stop, and as a failure otherwise. Executors that block must translate {@link
 * InterruptedException} into this (after restoring the interrupt flag).
 */
public final class ActorInterrupted extends RuntimeException {
  public ActorInterrupted(String message, InterruptedException cause) {
    super(message, cause);
  }
}

package dev.tideway.barrier.executor;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.Schema;

/**
 * A pull-based stream operator. The actor thread calls {@link #next()} in a loop; each call returns
 * the next message, blocking while none is ready. The first message is a barrier; every chunk
 * matches {@link #schema()}; a barrier {@code {curr, prev}} follows one whose {@code curr} is this
 * {@code prev}. {@link CheckedExecutor} enforces all of this.
 *
 * <p>Confined to the one actor thread that pulls it.
 */
public interface Executor {
  /** The schema of every chunk this executor emits. */
  Schema schema();

  /** Ids and name for messages. */
  ExecutorInfo info();

  /**
   * The next message, or null when the stream ended (only finite test sources and stopped actors
   * end). Throws when the executor failed; the actor then reports the failure.
   */
  Message next();
}

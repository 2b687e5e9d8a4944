package dev.tideway.backfill.upstream;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.message.Message;

/**
 * An executor that can also answer "is a message ready?" without blocking, so a backfill can read
 * its snapshot while the upstream is idle on the same thread. A merge executor implements it by one
 * round of polls over its input channels without waiting.
 */
public interface PollableExecutor extends Executor {
  /** The next message if one is ready now, else null. Never blocks. */
  Message poll();
}

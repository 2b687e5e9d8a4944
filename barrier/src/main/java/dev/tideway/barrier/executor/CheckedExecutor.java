package dev.tideway.barrier.executor;

import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.Schema;

/**
 * The wrapper the runtime puts around every executor: checks each message it emits with {@link
 * EpochCheck}, {@link SchemaCheck} and {@link UpdateCheck}, and fails with an invariant violation
 * naming the actor, the executor and the values. All checks are cheap and always on.
 *
 * <p>Confined to the actor thread, like the executor it wraps.
 */
public final class CheckedExecutor implements Executor {
  private final Executor inner;
  private final EpochCheck epochCheck;
  private final SchemaCheck schemaCheck;
  private final UpdateCheck updateCheck;

  private CheckedExecutor(Executor inner) {
    this.inner = inner;
    ExecutorInfo info = inner.info();
    this.epochCheck = new EpochCheck(info);
    this.schemaCheck = new SchemaCheck(info, inner.schema());
    this.updateCheck = new UpdateCheck(info);
  }

  /** Wraps {@code executor}; wrapping twice returns the same wrapper. */
  public static Executor wrap(Executor executor) {
    return executor instanceof CheckedExecutor ? executor : new CheckedExecutor(executor);
  }

  @Override
  public Schema schema() {
    return inner.schema();
  }

  @Override
  public ExecutorInfo info() {
    return inner.info();
  }

  @Override
  public Message next() {
    Message m = inner.next();
    if (m != null) {
      epochCheck.check(m);
      schemaCheck.check(m);
      updateCheck.check(m);
    }
    return m;
  }
}

package dev.tideway.backfill.sim;

import dev.tideway.backfill.upstream.PollableExecutor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.Schema;
import java.util.ArrayDeque;

/**
 * A scripted upstream: emits what was pushed, in order. A gap makes one {@link #poll()} return null
 * ("nothing arrived yet"), which is when a backfill reads its snapshot; {@link #next()} skips gaps.
 * Empty = end of stream. Single-threaded, so a run is replayable from its seed.
 */
public final class TestUpstream implements PollableExecutor {
  private static final Object GAP = new Object();
  private final Schema schema;
  private final ExecutorInfo info;
  private final ArrayDeque<Object> queue = new ArrayDeque<>();

  public TestUpstream(int actorId, Schema schema) {
    this.schema = schema;
    this.info = new ExecutorInfo(actorId, 1, "TestUpstream");
  }

  public void push(Message m) {
    queue.add(m);
  }

  public void gaps(int n) {
    for (int i = 0; i < n; i++) {
      queue.add(GAP);
    }
  }

  @Override
  public Message poll() {
    Object o = queue.poll();
    return o == GAP ? null : (Message) o;
  }

  @Override
  public Message next() {
    Object o;
    do {
      o = queue.poll();
    } while (o == GAP);
    return (Message) o;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }
}

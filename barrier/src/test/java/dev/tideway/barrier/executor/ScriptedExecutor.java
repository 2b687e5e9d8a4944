package dev.tideway.barrier.executor;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.types.Schema;
import java.util.ArrayDeque;
import java.util.Deque;

/** A test source: emits the messages pushed into it, then null. */
public final class ScriptedExecutor implements Executor {
  private final Schema schema;
  private final ExecutorInfo info;
  private final Deque<Message> queue = new ArrayDeque<>();

  public ScriptedExecutor(int actorId, Schema schema) {
    this.schema = schema;
    this.info = new ExecutorInfo(actorId, 1, "Scripted");
  }

  public ScriptedExecutor pushBarrier(long curr, long prev) {
    queue.add(Barrier.of(new EpochPair(curr, prev), BarrierKind.CHECKPOINT));
    return this;
  }

  public ScriptedExecutor push(Message m) {
    queue.add(m);
    return this;
  }

  public ScriptedExecutor pushChunk(String dsl) {
    queue.add(Message.of(Chunks.parse(dsl)));
    return this;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public ExecutorInfo info() {
    return info;
  }

  @Override
  public Message next() {
    return queue.poll();
  }
}

package dev.tideway.compute.actor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.types.Schema;
import java.util.ArrayDeque;
import java.util.List;

/** Emits a fixed list of messages, then end of stream. */
public final class ListExecutor implements Executor {
  private final ExecutorInfo info;
  private final Schema schema;
  private final ArrayDeque<Message> messages;

  public ListExecutor(ExecutorInfo info, Schema schema, List<? extends Message> messages) {
    this.info = info;
    this.schema = schema;
    this.messages = new ArrayDeque<>(messages);
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
    return messages.poll();
  }
}

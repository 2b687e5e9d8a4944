package dev.tideway.compute.testing;

import dev.tideway.barrier.epoch.EpochPair;
import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.executor.ExecutorInfo;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.message.BarrierKind;
import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Mutation;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.chunk.Chunks;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * A scripted input: {@link #pushBarrier}, {@link #pushChunk} and {@link #pushWatermark} queue
 * messages, {@link #next()} returns them in order and null once the queue is empty (the end of the
 * stream). Barriers chain their epochs: each {@code pushBarrier(e)} closes the previous epoch
 * ({@code prev} = the last pushed epoch, 0 for the first).
 *
 * <p>Not thread-safe: script it on the test thread, or push before handing it to another.
 */
public final class MockSource implements Executor {
  private final Schema schema;
  private final ExecutorInfo info = new ExecutorInfo(0, 0, "MockSource");
  private final Deque<Message> queue = new ArrayDeque<>();
  private long lastEpoch;

  public MockSource(Schema schema) {
    this.schema = schema;
  }

  /** A source of unnamed columns of these types ({@code "bigint", "varchar"} ...). */
  public static MockSource of(String... types) {
    return new MockSource(Schema.ofTypes(List.of(types).stream().map(DataType::parse).toList()));
  }

  /** A checkpoint barrier closing the last epoch and opening {@code epoch}. */
  public MockSource pushBarrier(long epoch) {
    return pushBarrier(epoch, true);
  }

  public MockSource pushBarrier(long epoch, boolean checkpoint) {
    BarrierKind kind =
        lastEpoch == 0
            ? BarrierKind.INITIAL
            : checkpoint ? BarrierKind.CHECKPOINT : BarrierKind.BARRIER;
    return pushBarrier(new Barrier(new EpochPair(epoch, lastEpoch), kind, null));
  }

  /** A checkpoint barrier carrying {@code mutation}. */
  public MockSource pushBarrier(long epoch, Mutation mutation) {
    return pushBarrier(
        new Barrier(new EpochPair(epoch, lastEpoch), BarrierKind.CHECKPOINT, mutation));
  }

  public MockSource pushBarrier(Barrier barrier) {
    lastEpoch = barrier.curr();
    queue.add(barrier);
    return this;
  }

  /** A chunk in the chunk DSL; without a header line the source's types are used. */
  public MockSource pushChunk(String dsl) {
    String text = dsl.strip();
    boolean hasHeader =
        !text.isEmpty() && !text.startsWith("+") && !text.startsWith("-") && !text.startsWith("U");
    if (!hasHeader) {
      StringBuilder header = new StringBuilder();
      for (DataType t : schema.types()) {
        header.append(Chunks.pretty(StreamChunk.empty(List.of(t))).strip()).append(' ');
      }
      text = header + "\n" + text;
    }
    return pushChunk(Chunks.parse(text));
  }

  public MockSource pushChunk(StreamChunk chunk) {
    queue.add(Message.of(chunk));
    return this;
  }

  public MockSource pushWatermark(int column, Object value) {
    queue.add(new Watermark(column, schema.type(column), value));
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

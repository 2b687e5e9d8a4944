package dev.tideway.compute.executor;

import dev.tideway.barrier.executor.Executor;
import dev.tideway.barrier.message.Message;
import dev.tideway.common.chunk.StreamChunk;
import java.util.function.UnaryOperator;

/**
 * The pull loop of an executor that maps each chunk to another (a filter, a row-expanding window):
 * barriers and watermarks pass through, and a chunk left with no visible row is not emitted.
 */
final class ChunkMapping {
  private ChunkMapping() {}

  /** The next message of {@code input} with its chunks mapped by {@code map}. */
  static Message next(Executor input, UnaryOperator<StreamChunk> map) {
    while (true) {
      Message m = input.next();
      if (!(m instanceof Message.Chunk c)) {
        return m;
      }
      StreamChunk out = map.apply(c.chunk());
      if (out.cardinality() > 0) {
        return Message.of(out);
      }
    }
  }
}

package dev.tideway.barrier.message;

import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;

/** One item an executor emits: a data chunk, a barrier or a watermark. */
public sealed interface Message permits Message.Chunk, Barrier, Watermark {

  /** A data chunk; wraps {@link StreamChunk}, which lives in {@code common}. */
  record Chunk(StreamChunk chunk) implements Message {
    public Chunk {
      Checks.checkNotNull(chunk, "chunk");
    }

    @Override
    public String toString() {
      return "Chunk(" + chunk.size() + " rows)";
    }
  }

  /** Wraps a chunk. */
  static Message of(StreamChunk chunk) {
    return new Chunk(chunk);
  }
}

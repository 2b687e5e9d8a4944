package dev.tideway.compute.executor;

import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.row.Row;
import java.util.HashMap;
import java.util.Map;

/**
 * The per-row corrections {@link MaterializeExecutor} makes to a chunk: a row dropped, or replaced
 * by one or two other rows. Allocates nothing until the first correction, and returns the input
 * chunk itself when there is none. Used once, on the actor thread.
 */
final class Corrections {
  private final StreamChunk chunk;

  /** Row index → what replaces it (an empty array drops it); {@code null} while there is none. */
  private Map<Integer, Object[]> replaced;

  Corrections(StreamChunk chunk) {
    this.chunk = chunk;
  }

  void drop(int i) {
    put(i, new Object[0]);
  }

  void replace(int i, Op op, Row row) {
    put(i, new Object[] {op, row});
  }

  void replace(int i, Op op1, Row row1, Op op2, Row row2) {
    put(i, new Object[] {op1, row1, op2, row2});
  }

  private void put(int i, Object[] with) {
    if (replaced == null) {
      replaced = new HashMap<>();
    }
    replaced.put(i, with);
  }

  /** The corrected chunk, or the input when nothing was corrected. */
  StreamChunk result() {
    if (replaced == null) {
      return chunk;
    }
    int n = chunk.size();
    StreamChunkBuilder out = new StreamChunkBuilder(chunk.types(), n + 1);
    for (int i = 0; i < n; i++) {
      if (!chunk.isVisible(i)) {
        continue;
      }
      Object[] with = replaced.get(i);
      if (with == null) {
        out.appendRowFrom(chunk.op(i), chunk, i);
        continue;
      }
      for (int k = 0; k < with.length; k += 2) {
        out.append((Op) with[k], (Row) with[k + 1]);
      }
    }
    return out.build();
  }
}

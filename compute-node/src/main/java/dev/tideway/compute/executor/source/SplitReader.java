package dev.tideway.compute.executor.source;

import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.Schema;

/**
 * Reads one split of a connector by offset. The rows at an offset never change: reading the same
 * offset again (after recovery) returns the same rows, which is what makes restored offsets
 * exactly-once.
 *
 * <p>Confined to the source actor's thread.
 */
public interface SplitReader {
  /** The split's stable id, the key its offset is persisted under. */
  String splitId();

  /** The schema of the rows read. */
  Schema schema();

  /**
   * Up to {@code maxRows} rows starting at {@code offset}, all inserts, and the offset after them.
   * An offset may cover records this split does not emit (a Nexmark bid table skips persons), so
   * the chunk can hold fewer rows than the offsets it advanced, even none.
   */
  Batch read(long offset, int maxRows);

  /** True when nothing exists at or after {@code offset} (a bounded split is done). */
  boolean isExhausted(long offset);

  /**
   * Where the split starts when no offset of it was committed (a generated split at 0; a Kafka
   * partition where its startup mode says). May ask the external system.
   */
  default long startOffset() {
    return 0;
  }

  /**
   * A read's rows and where the next read starts.
   *
   * @param chunk the rows, all inserts
   * @param nextOffset the offset after them, {@code >=} the offset read
   */
  record Batch(StreamChunk chunk, long nextOffset) {}
}

/**
 * Columnar change batches: {@link dev.tideway.common.chunk.StreamChunk} (an {@link
 * dev.tideway.common.chunk.Op} per row, typed column vectors on primitive arrays, a visibility
 * bitmap), its builders, its Kryo serializer, and the text DSL ({@link
 * dev.tideway.common.chunk.Chunks}) that tests are written in.
 *
 * <p>Invariants: every column has exactly {@code size()} rows; a {@code U-} row is immediately
 * followed by its {@code U+}; hidden rows are physically present and skipped by every consumer;
 * chunks are immutable once built.
 */
package dev.tideway.common.chunk;

/**
 * No-shuffle backfill: {@link dev.tideway.backfill.noshuffle.NoShuffleBackfillExecutor} reads the
 * co-located upstream's uncommitted shared buffer at {@code barrier.prev}.
 */
package dev.tideway.backfill.noshuffle;

/**
 * Compaction: the picker (pure), which chooses a {@link dev.tideway.storage.api.CompactionJob}, and
 * the rewriter that runs one, dropping versions below the safe epoch and tombstones at the bottom
 * level, and answers with a {@link dev.tideway.storage.api.CompactionOutcome} carrying the exact
 * stats delta of what it drops.
 */
package dev.tideway.storage.compaction;

/**
 * Compaction: the picker (pure), the task, and the rewriter that drops versions below the safe
 * epoch and tombstones at the bottom level, with the exact stats delta of what it drops.
 */
package dev.tideway.storage.compaction;

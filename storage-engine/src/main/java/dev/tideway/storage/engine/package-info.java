/**
 * The assembled engine: threads, read paths over shared buffer and pinned versions, commits,
 * compaction scheduling, vacuum.
 */
package dev.tideway.storage.engine;

/**
 * Memtables (one per writer and epoch) and the node's shared buffer of sealed, uncommitted writes
 * that spills to SSTs under a memory limit and syncs them at checkpoints.
 */
package dev.tideway.storage.memtable;

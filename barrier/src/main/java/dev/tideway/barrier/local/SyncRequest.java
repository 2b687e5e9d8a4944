package dev.tideway.barrier.local;

import dev.tideway.barrier.epoch.EpochPair;

/**
 * Sync the state sealed up to {@code epoch.prev()} (the checkpoint this barrier closes) for these
 * tables. Answer with {@link LocalBarrierManager#onSyncCompleted} naming {@code epoch.curr()} and
 * {@code generation}.
 */
public record SyncRequest(int nodeId, long generation, EpochPair epoch, int[] tablesToSync) {}

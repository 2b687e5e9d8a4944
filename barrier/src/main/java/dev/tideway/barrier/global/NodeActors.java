package dev.tideway.barrier.global;

/**
 * The actors of one node for barrier purposes: roots to inject into, all actors to collect from,
 * the state tables to sync on a checkpoint. Arrays are shared, never copied: treat as immutable.
 */
public record NodeActors(
    int nodeId, int[] actorsToSend, int[] actorsToCollect, int[] tablesToSync) {}

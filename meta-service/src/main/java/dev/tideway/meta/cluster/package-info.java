/**
 * Leadership and the fenced metadata store, over ZooKeeper through Curator.
 *
 * <p>Flow: {@link dev.tideway.meta.cluster.LeaderElector} runs a Curator {@code LeaderLatch}; on
 * winning it bumps the leader-epoch znode in one multi-op (that version is the {@link
 * dev.tideway.meta.cluster.LeaderTerm}) and publishes the leader's address. Every later write goes
 * through {@link dev.tideway.meta.cluster.FencedMetaStore#commit}, a ZooKeeper multi-op that first
 * checks the epoch znode's version and that the term's latch znode still exists, so a deposed
 * leader (session expired, process paused) cannot write. {@link
 * dev.tideway.protocol.store.NodeRegistry} keeps the ephemeral registrations of every process.
 *
 * <p>Invariants: at most one term can write at a time (ZooKeeper decides, not this JVM); a leader
 * that sees its connection SUSPENDED or LOST drops its term before anything else happens;
 * leadership callbacks run on the elector's single owner thread.
 */
package dev.tideway.meta.cluster;

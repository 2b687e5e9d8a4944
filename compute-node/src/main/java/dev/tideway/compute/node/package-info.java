/**
 * The compute process: {@link dev.tideway.compute.node.ComputeNode} joins the Pekko cluster (role
 * {@code compute}) through ZooKeeper ({@link dev.tideway.protocol.cluster.ZkClusterJoin}) and runs
 * the control loop {@link dev.tideway.compute.node.ComputeControl}, which serves the meta leader's
 * {@link dev.tideway.protocol.compute.ControlMessage}s (build actors and add outputs to running
 * ones, inject barrier, drop actors, reset for recovery, write DML rows into tables, run a
 * compaction) over the barrier module's {@code LocalBarrierManager}, and answers with {@link
 * dev.tideway.protocol.compute.ComputeEvent}s ({@code BarrierCompleted} with synced SSTs, stats and
 * progress; actor failures; acks). {@link dev.tideway.compute.node.ComputeKryoRegistrar} gives
 * every wire class a fixed Kryo id; {@link dev.tideway.compute.node.ComputeMetrics} is served on
 * {@code /metrics}.
 *
 * <p>Invariants: all node state (actors, barrier manager, peer map, DML channel registry writes) is
 * confined to the control actor; actor threads and the state store only send it messages.
 * Completions go to meta strictly in epoch order.
 */
package dev.tideway.compute.node;

/**
 * The actor runtime: {@link dev.tideway.compute.actor.StreamActor} runs one actor's executor chain
 * on its own thread, pulling {@link dev.tideway.barrier.message.Message}s from the chain's root and
 * reporting every barrier it sees to an {@link dev.tideway.compute.actor.ActorReporter} (the node's
 * control loop). {@link dev.tideway.compute.actor.ExecutorBuilder} is the SPI through which
 * operator implementations turn plan records into executors ({@link
 * dev.tideway.compute.actor.ExecutorBuilders} is the registry); {@link
 * dev.tideway.compute.actor.BarrierInbox} is where the node injects barriers into source actors.
 *
 * <p>Invariants: an actor reports barriers in the order its root emitted them; it reports at most
 * one terminal event (stopped, ended or failed); an actor dropped by the node reports nothing.
 */
package dev.tideway.compute.actor;

package dev.tideway.protocol.compute;

/**
 * What a compute node's control actor takes: the requests of the wire ({@link ComputeRequest}) and
 * the node's own events (local to the node, never serialized). A marker, so the control actor's one
 * message type spans both.
 */
public interface ControlMessage {}

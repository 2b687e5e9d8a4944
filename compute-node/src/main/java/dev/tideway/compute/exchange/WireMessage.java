package dev.tideway.compute.exchange;

import dev.tideway.common.serde.TidewayMessage;

/**
 * Marker for every message the compute node sends to another node (exchange frames and credits,
 * control commands and their replies). The node's Pekko configuration binds it to the cluster
 * serializer; every implementing class and every class reachable from its fields needs a fixed Kryo
 * id in the compute node's id range.
 */
public interface WireMessage extends TidewayMessage {}

/**
 * The compute node: the actor runtime (one thread per actor pulling its executor chain), the
 * executors, expressions, exchange (local and remote, credit-based) and the node process that joins
 * the Pekko cluster and serves the meta leader's barrier control messages.
 *
 * <p>Empty until the compute-node issue lands; see this module's README for the planned layout.
 */
package dev.tideway.compute;

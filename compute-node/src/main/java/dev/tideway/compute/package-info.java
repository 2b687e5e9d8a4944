/**
 * The compute node: the actor runtime (one thread per actor pulling its executor chain), the
 * executors, expressions, exchange (local and remote, credit-based) and the node process that joins
 * the Pekko cluster and serves the meta leader's barrier control messages.
 *
 * <p>Packages in flow order: {@code node} (process, control loop), {@code actor} (actor threads,
 * executor SPI), {@code executor} and {@code expr} (operators), {@code exchange} (dispatch, merge,
 * channels). The module README has the barrier flow in numbered steps.
 */
package dev.tideway.compute;

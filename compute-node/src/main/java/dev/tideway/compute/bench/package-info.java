/**
 * {@code tideway bench nexmark}: Nexmark queries run in process on the compute runtime ({@link
 * dev.tideway.compute.actor.StreamActor}s over executor chains built from plan records, barriers
 * injected and the in-memory state store committed by {@link
 * dev.tideway.compute.bench.BarrierDriver}), against a hand-written single-thread loop over the
 * same generated events ({@link dev.tideway.compute.bench.RawLoop}).
 */
package dev.tideway.compute.bench;

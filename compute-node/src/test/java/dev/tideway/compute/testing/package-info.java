/**
 * Test fixtures for executors: {@link dev.tideway.compute.testing.MockSource} scripts an input
 * stream of barriers, chunks (in the chunk DSL) and watermarks; {@link
 * dev.tideway.compute.testing.Drain} pulls an executor (wrapped in the barrier module's checking
 * wrapper) to the end of its stream.
 */
package dev.tideway.compute.testing;

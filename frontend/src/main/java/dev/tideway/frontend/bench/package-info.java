/** Benchmarks of the frontend ({@code tideway bench batch-select}). */
package dev.tideway.frontend.bench;

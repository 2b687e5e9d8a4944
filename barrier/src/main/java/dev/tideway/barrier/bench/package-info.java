/** {@code tideway bench barrier}: the meta-side core and progress tracker under simulated load. */
package dev.tideway.barrier.bench;

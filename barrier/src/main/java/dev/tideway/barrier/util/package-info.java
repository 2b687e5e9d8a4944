/** Small primitive collections for the hot paths of the barrier cores (no boxing per actor). */
package dev.tideway.barrier.util;

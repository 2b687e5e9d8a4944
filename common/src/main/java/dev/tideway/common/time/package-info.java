/**
 * The injected clock. Production code reads time only through {@link
 * dev.tideway.common.time.Clock}; tests and simulations drive {@link
 * dev.tideway.common.time.ManualClock}. The boundary tests ban direct calls to the system clock and
 * {@code Thread.sleep} outside this package.
 */
package dev.tideway.common.time;

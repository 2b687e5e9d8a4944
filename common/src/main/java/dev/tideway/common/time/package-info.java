/**
 * The injected clock, and what is decided from its readings. Production code reads time only
 * through {@link dev.tideway.common.time.Clock}; tests and simulations drive {@link
 * dev.tideway.common.time.ManualClock}. The boundary tests ban direct calls to the system clock and
 * {@code Thread.sleep} outside this package. {@link dev.tideway.common.time.RateLimiter} is the
 * token bucket of rows per second that sources and backfills are throttled with; it is given the
 * times and reads no clock itself.
 */
package dev.tideway.common.time;

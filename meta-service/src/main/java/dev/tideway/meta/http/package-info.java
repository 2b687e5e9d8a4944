/**
 * The meta process's HTTP surface on the JDK {@code HttpServer}, bound to 127.0.0.1 unless
 * configured: health probes, a read-only JSON API and Prometheus {@code /metrics}.
 *
 * <p>Invariants: {@code /health/live} depends on nothing outside the process (a ZooKeeper outage
 * must not get every meta process restarted); every endpoint is read-only and answers only GET;
 * handlers read published snapshots and never touch an owner thread's state.
 */
package dev.tideway.meta.http;

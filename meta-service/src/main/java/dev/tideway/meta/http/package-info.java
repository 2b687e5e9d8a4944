/**
 * The meta process's HTTP surface on the JDK {@code HttpServer}, bound to 127.0.0.1 unless
 * configured: health probes, the dashboard's pages and JSON API, and Prometheus {@code /metrics}.
 *
 * <p>Invariants: {@code /health/live} depends on nothing outside the process (a ZooKeeper outage
 * must not get every meta process restarted); every endpoint answers only GET and changes nothing,
 * except the job page's two actions ({@code POST /api/jobs/{id}/rate-limit} and {@code /cancel}),
 * which submit the same DDL commands a SQL client would and answer only allowed client addresses;
 * handlers read published snapshots and never touch an owner thread's state.
 */
package dev.tideway.meta.http;

/**
 * What the dashboard remembers beyond the current moment, on the leader: per-second time series of
 * the barrier loop and of every job ({@link dev.tideway.meta.dashboard.SeriesRing}, the last hour,
 * in memory, gone with the leader), recoveries as events, and, when a backfill finishes, the entry
 * of the persisted history with how true its progress was ({@link
 * dev.tideway.meta.dashboard.ProgressAccuracy}).
 *
 * <p>Flow: the barrier loop's owner thread calls {@link
 * dev.tideway.meta.dashboard.DashboardRecorder} (a {@code BarrierObserver}) at collect, commit,
 * progress and recovery; it writes the rings and submits {@code RecordBackfill} to the DDL service;
 * HTTP threads read the rings (single writer, readers never block it).
 */
package dev.tideway.meta.dashboard;

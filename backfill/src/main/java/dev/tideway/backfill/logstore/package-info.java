/**
 * Log-store consumption for snapshot backfill: {@link dev.tideway.backfill.logstore.PendingEpochs}
 * (the upstream epochs not yet emitted, holding chunks only while uncommitted) and {@link
 * dev.tideway.backfill.logstore.LogStoreReader} (the upstream table's change log as chunks).
 */
package dev.tideway.backfill.logstore;

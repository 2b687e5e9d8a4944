/**
 * {@code tideway bench backfill}: {@link dev.tideway.backfill.bench.BackfillBenchmark} loads a
 * table, backfills an MV over it under churn, and compares throughput with a raw scan and the
 * tracker's progress with the true fraction consumed.
 */
package dev.tideway.backfill.bench;

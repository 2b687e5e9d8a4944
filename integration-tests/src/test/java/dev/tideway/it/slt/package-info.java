/**
 * A sqllogictest runner for RisingWave's e2e file format, over any PostgreSQL-protocol endpoint
 * reached through pgjdbc: {@link dev.tideway.it.slt.SltParser} turns {@code .slt} text into {@link
 * dev.tideway.it.slt.SltRecord}s (includes expanded, each record keeping its file and line), {@link
 * dev.tideway.it.slt.SltRunner} runs them on one connection per file and {@link
 * dev.tideway.it.slt.ResultComparator} decides whether a query's rows match. Where the cluster
 * under test comes from is {@link dev.tideway.it.slt.SltTarget}.
 */
package dev.tideway.it.slt;

/**
 * Batch SELECT: Calcite's enumerable engine, driven through its JDBC connection, over {@link
 * StoredTable}s that scan a {@link dev.tideway.frontend.meta.BatchReader} at the committed epoch.
 * {@link BatchEngine} is one session's engine; schemas are registered into it by the session. A
 * filter on a table's primary key keeps its place in the compiled plan; the scan under it is a
 * {@link PkScan}, which reads only the pk range the filter's conjuncts give with each execution's
 * bound parameters ({@link PkRanges}).
 */
package dev.tideway.frontend.batch;

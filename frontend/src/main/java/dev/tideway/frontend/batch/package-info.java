/**
 * Batch SELECT: Calcite's enumerable engine, driven through its JDBC connection, over {@link
 * StoredTable}s that scan a {@link dev.tideway.frontend.meta.BatchReader} at the committed epoch.
 * {@link BatchEngine} is one session's engine; schemas are registered into it by the session.
 */
package dev.tideway.frontend.batch;

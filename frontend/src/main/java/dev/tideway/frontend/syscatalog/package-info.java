/**
 * The system catalog: {@code pg_catalog} and {@code information_schema} relations and functions
 * (enough for psql's {@code \d}, {@code \dt}, {@code \dm} and pgjdbc metadata), {@code rw_catalog}
 * ({@code rw_ddl_progress}, {@code rw_table_stats}, ...) and the rows of {@code SHOW} commands, all
 * computed from the {@link dev.tideway.frontend.meta.MetaClient} at query time.
 */
package dev.tideway.frontend.syscatalog;

/**
 * The ports through which the frontend reaches the rest of the cluster, and the values they carry:
 * {@link dev.tideway.frontend.meta.MetaClient} (catalog reads, DDL submission as {@link
 * dev.tideway.frontend.meta.DdlCommand}s, creating jobs as {@link
 * dev.tideway.frontend.meta.DdlJob}s, flush and the {@link dev.tideway.frontend.meta.WriteAck}s it
 * judges, {@link dev.tideway.frontend.meta.TableStats}), {@link
 * dev.tideway.frontend.meta.BatchReader} (a table's rows at a committed epoch, narrowed by a {@link
 * dev.tideway.frontend.meta.PkRange}) and {@link dev.tideway.frontend.meta.DmlWriter} (rows written
 * by INSERT/UPDATE/DELETE); {@link dev.tideway.frontend.meta.Relation} is a catalog relation as the
 * frontend sees it, and {@link dev.tideway.frontend.meta.ForegroundJobs} how any {@code MetaClient}
 * waits for a foreground create. The cluster's implementations are in {@code frontend.cluster}.
 *
 * <p>{@link dev.tideway.frontend.meta.InMemoryCluster} implements all three ports in one JVM
 * without stream processing. It is not a production component and no process uses it: the
 * frontend's tests, integration-tests' {@code SltTarget.inMemory} and the {@code tideway bench
 * batch-select} benchmark do (the benchmark is why it is still in main sources).
 */
package dev.tideway.frontend.meta;

/**
 * The frontend's view of the rest of the cluster: {@link MetaClient} (catalog reads, DDL
 * submission, jobs and their progress, flush), {@link BatchReader} (a table's rows at an epoch) and
 * {@link DmlWriter} (rows written by INSERT/UPDATE/DELETE).
 *
 * <p>{@link InMemoryCluster} implements all three in one JVM without any stream processing: it is
 * for tests and for a playground until the meta service and compute nodes exist. It is not a
 * production component.
 */
package dev.tideway.frontend.meta;

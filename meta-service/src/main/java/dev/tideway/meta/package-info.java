/**
 * The meta service: the ZooKeeper-elected leader that owns the catalog, fragments jobs into actors,
 * (soon) injects barriers, commits storage versions and tracks create-MV progress.
 *
 * <p>{@link dev.tideway.meta.MetaServer} wires one meta process: ZooKeeper client, {@code cluster}
 * (election, fenced store, registry), {@code catalog} (DDL shell), {@code http}. Stages, in flow
 * order: {@code cluster → metadata → catalog → fragment → schedule → http}. See the module README
 * for the flows and the ZooKeeper layout.
 */
package dev.tideway.meta;

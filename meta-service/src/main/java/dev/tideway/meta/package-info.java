/**
 * The meta service: ZooKeeper-elected leader that owns the catalog, fragments jobs into actors,
 * injects barriers, commits storage versions and tracks create-MV progress.
 *
 * <p>Empty until the meta-service issue lands; see this module's README for the planned layout.
 */
package dev.tideway.meta;

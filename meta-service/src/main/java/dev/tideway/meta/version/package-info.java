/**
 * The storage version manager as the meta leader runs it over the storage engine's {@link
 * dev.tideway.storage.api.VersionService}: {@link dev.tideway.meta.version.StorageVersionCommitter}
 * commits each checkpoint (the barrier loop's {@code VersionCommitter}); {@link
 * dev.tideway.meta.version.VersionMaintenance} schedules compaction on compute nodes, applies the
 * results and vacuums unreferenced SSTs after a grace period; {@link
 * dev.tideway.meta.version.ReaderPins} holds the epochs readers report to meta, which bound the
 * safe epoch compaction may collapse to (readers in follower processes pin through their store,
 * which publishes the pin in the object store for the owner's store to honour). Dropped tables
 * leave the version through {@code VersionCommitter.dropTables}.
 *
 * <p>Only the meta leader changes versions; every other process opens the same object store as a
 * follower and refreshes to the epochs the leader announces.
 */
package dev.tideway.meta.version;

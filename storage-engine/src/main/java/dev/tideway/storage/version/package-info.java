/**
 * Versions of the LSM (levels, committed and safe epoch, TableStats), deltas, their persisted form
 * (checkpoint + delta log in the object store), pinning (local VersionPins; RemotePins publishes a
 * follower's oldest pin for the version owner in another process), dropped tables. A version
 * changes only through a VersionDelta on the version manager's thread.
 */
package dev.tideway.storage.version;

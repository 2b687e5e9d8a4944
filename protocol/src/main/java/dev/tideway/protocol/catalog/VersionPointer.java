package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;

/**
 * The storage version pointer at {@code storage/version}: where the latest version checkpoint and
 * delta log live in the object store, and the committed epoch they reach. ZooKeeper holds only this
 * pointer; the version itself is in the object store.
 *
 * @param versionId the id of the latest committed version
 * @param maxCommittedEpoch its max committed epoch (0 before the first commit)
 * @param location the object-store path of the version checkpoint / delta log
 */
public record VersionPointer(long versionId, long maxCommittedEpoch, String location) {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_VERSION_ID = 1;
  static final int FIELD_MAX_COMMITTED_EPOCH = 2;
  static final int FIELD_LOCATION = 3;

  public VersionPointer {
    Checks.checkArgument(versionId >= 0, "version id must be >= 0, got %s", versionId);
    Checks.checkNotNull(location, "version location");
  }

  public byte[] encode() {
    return TaggedWriter.record(RecordKind.VERSION_POINTER, FORMAT_VERSION)
        .putLong(FIELD_VERSION_ID, versionId)
        .putLong(FIELD_MAX_COMMITTED_EPOCH, maxCommittedEpoch)
        .putString(FIELD_LOCATION, location)
        .toBytes();
  }

  public static VersionPointer decode(byte[] data) {
    TaggedReader r = TaggedReader.record(data, RecordKind.VERSION_POINTER, FORMAT_VERSION);
    return new VersionPointer(
        r.requireLong(FIELD_VERSION_ID),
        r.getLong(FIELD_MAX_COMMITTED_EPOCH, 0),
        r.getString(FIELD_LOCATION, ""));
  }
}

package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;

/**
 * The next free id at {@code catalog/next-id}. One counter serves catalog objects, jobs, fragments
 * and actors, so ids never collide across kinds and a persisted id is never handed out again.
 *
 * @param next the smallest id not yet used, {@code >= 1}
 */
public record NextId(int next) {
  public static final int FORMAT_VERSION = 1;
  static final int FIELD_NEXT = 1;

  public NextId {
    Checks.checkArgument(next >= 1, "next id must be >= 1, got %s", next);
  }

  public byte[] encode() {
    return TaggedWriter.record(RecordKind.NEXT_ID, FORMAT_VERSION)
        .putInt(FIELD_NEXT, next)
        .toBytes();
  }

  public static NextId decode(byte[] data) {
    return new NextId(
        TaggedReader.record(data, RecordKind.NEXT_ID, FORMAT_VERSION).requireInt(FIELD_NEXT));
  }
}

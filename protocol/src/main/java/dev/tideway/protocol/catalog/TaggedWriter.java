package dev.tideway.protocol.catalog;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes one record: {@code kind byte, format version byte, then (tag u16, length i32, bytes)*}. A
 * tag may repeat (that is how lists are written). Not thread-safe; one writer per record.
 */
public final class TaggedWriter {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final DataOutputStream out = new DataOutputStream(bytes);

  private TaggedWriter() {}

  /** A writer for a top-level record of {@code kind} in {@code formatVersion}. */
  public static TaggedWriter record(RecordKind kind, int formatVersion) {
    TaggedWriter w = new TaggedWriter();
    w.bytes.write(kind.code());
    w.bytes.write(formatVersion);
    return w;
  }

  /** A writer for a nested struct (no header); embed it with {@link #putNested}. */
  public static TaggedWriter nested() {
    return new TaggedWriter();
  }

  public TaggedWriter putBytes(int tag, byte[] value) {
    try {
      out.writeShort(tag);
      out.writeInt(value.length);
      out.write(value);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return this;
  }

  public TaggedWriter putLong(int tag, long value) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (value >>> (56 - 8 * i));
    }
    return putBytes(tag, b);
  }

  public TaggedWriter putInt(int tag, int value) {
    return putLong(tag, value);
  }

  public TaggedWriter putBoolean(int tag, boolean value) {
    return putBytes(tag, new byte[] {(byte) (value ? 1 : 0)});
  }

  public TaggedWriter putByte(int tag, byte value) {
    return putBytes(tag, new byte[] {value});
  }

  public TaggedWriter putString(int tag, String value) {
    return putBytes(tag, value.getBytes(StandardCharsets.UTF_8));
  }

  public TaggedWriter putNested(int tag, TaggedWriter nested) {
    return putBytes(tag, nested.toBytes());
  }

  public byte[] toBytes() {
    return bytes.toByteArray();
  }
}

package dev.tideway.protocol.catalog;

import dev.tideway.common.check.Checks;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads what {@link TaggedWriter} wrote. Unknown tags are kept but ignored by the typed getters, so
 * an older reader reads a newer record; absent tags give the caller's default, so a newer reader
 * reads an older record. Truncated input fails loudly naming the offset.
 */
public final class TaggedReader {
  private final int formatVersion;
  private final Map<Integer, List<byte[]>> fields = new LinkedHashMap<>();

  private TaggedReader(byte[] data, int start, int formatVersion) {
    this.formatVersion = formatVersion;
    ByteBuffer buf = ByteBuffer.wrap(data);
    buf.position(start);
    while (buf.hasRemaining()) {
      Checks.checkArgument(
          buf.remaining() >= 6, "truncated field header at offset %s", buf.position());
      int tag = Short.toUnsignedInt(buf.getShort());
      int len = buf.getInt();
      Checks.checkArgument(
          len >= 0 && len <= buf.remaining(),
          "field %s at offset %s claims %s bytes, %s remain",
          tag,
          buf.position(),
          len,
          buf.remaining());
      byte[] v = new byte[len];
      buf.get(v);
      fields.computeIfAbsent(tag, t -> new ArrayList<>()).add(v);
    }
  }

  /** Reads a top-level record, checking its kind and that its version is one this code knows. */
  public static TaggedReader record(byte[] data, RecordKind expected, int maxFormatVersion) {
    Checks.checkArgument(data != null && data.length >= 2, "metadata record shorter than header");
    RecordKind kind = RecordKind.fromCode(data[0]);
    Checks.checkArgument(kind == expected, "expected a %s record, got %s", expected, kind);
    int version = Byte.toUnsignedInt(data[1]);
    Checks.checkArgument(
        version >= 1 && version <= maxFormatVersion,
        "%s format version %s is not in [1, %s] (written by a newer release?)",
        kind,
        version,
        maxFormatVersion);
    return new TaggedReader(data, 2, version);
  }

  /** Reads a nested struct written with {@link TaggedWriter#nested()}. */
  public static TaggedReader nested(byte[] data) {
    return new TaggedReader(data, 0, 0);
  }

  public int formatVersion() {
    return formatVersion;
  }

  public boolean has(int tag) {
    return fields.containsKey(tag);
  }

  public List<byte[]> all(int tag) {
    return fields.getOrDefault(tag, List.of());
  }

  public byte[] bytes(int tag) {
    List<byte[]> v = fields.get(tag);
    Checks.checkArgument(v != null, "required field %s is missing", tag);
    return v.get(v.size() - 1);
  }

  public long getLong(int tag, long dflt) {
    return has(tag) ? decodeLong(bytes(tag)) : dflt;
  }

  public long requireLong(int tag) {
    return decodeLong(bytes(tag));
  }

  public int requireInt(int tag) {
    return Math.toIntExact(requireLong(tag));
  }

  public int getInt(int tag, int dflt) {
    return has(tag) ? requireInt(tag) : dflt;
  }

  public boolean getBoolean(int tag, boolean dflt) {
    return has(tag) ? bytes(tag)[0] != 0 : dflt;
  }

  public byte requireByte(int tag) {
    return bytes(tag)[0];
  }

  public String requireString(int tag) {
    return new String(bytes(tag), StandardCharsets.UTF_8);
  }

  public String getString(int tag, String dflt) {
    return has(tag) ? requireString(tag) : dflt;
  }

  /** Every occurrence of {@code tag} decoded as a nested struct, in write order. */
  public List<TaggedReader> nestedAll(int tag) {
    return all(tag).stream().map(TaggedReader::nested).toList();
  }

  public List<Long> longs(int tag) {
    return all(tag).stream().map(TaggedReader::decodeLong).toList();
  }

  private static long decodeLong(byte[] b) {
    Checks.checkArgument(b.length == 8, "a long field has 8 bytes, got %s", b.length);
    long v = 0;
    for (byte x : b) {
      v = (v << 8) | (x & 0xff);
    }
    return v;
  }
}

package dev.tideway.storage.version;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Tag-length-value fields: {@code tag (int) | length (int) | payload}. Readers skip tags they do
 * not know, so adding a field never breaks an older reader of newer files, and a newer reader
 * defaults fields that older files lack.
 */
final class Tlv {
  private Tlv() {}

  static final class Writer {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);

    Writer field(int tag, byte[] payload) {
      try {
        out.writeInt(tag);
        out.writeInt(payload.length);
        out.write(payload);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return this;
    }

    Writer i64(int tag, long v) {
      return field(tag, ByteBuffer.allocate(8).putLong(v).array());
    }

    Writer i32(int tag, int v) {
      return field(tag, ByteBuffer.allocate(4).putInt(v).array());
    }

    Writer nested(int tag, Writer w) {
      return field(tag, w.toByteArray());
    }

    byte[] toByteArray() {
      return bytes.toByteArray();
    }
  }

  static final class Reader {
    private final ByteBuffer buf;
    private int tag;
    private ByteBuffer payload;

    Reader(byte[] bytes) {
      this.buf = ByteBuffer.wrap(bytes);
    }

    Reader(ByteBuffer buf) {
      this.buf = buf;
    }

    boolean next() {
      if (!buf.hasRemaining()) {
        return false;
      }
      tag = buf.getInt();
      int len = buf.getInt();
      if (len < 0 || len > buf.remaining()) {
        throw new IllegalStateException(
            "field " + tag + " of length " + len + " overruns " + buf.remaining());
      }
      payload = buf.slice();
      payload.limit(len);
      buf.position(buf.position() + len);
      return true;
    }

    int tag() {
      return tag;
    }

    long i64() {
      return payload.getLong(0);
    }

    int i32() {
      return payload.getInt(0);
    }

    byte[] bytes() {
      byte[] b = new byte[payload.remaining()];
      payload.duplicate().get(b);
      return b;
    }

    Reader nested() {
      return new Reader(payload.duplicate());
    }
  }
}

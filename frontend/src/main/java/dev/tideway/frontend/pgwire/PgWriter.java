package dev.tideway.frontend.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Builds backend messages into a buffer and writes them out on {@link #flush()} (once per
 * ReadyForQuery, so a pipelined batch of answers goes out in one write).
 *
 * <p>Thread confinement: owned by its connection's thread.
 */
final class PgWriter {
  private final OutputStream out;
  private final ByteArrayOutputStream buf = new ByteArrayOutputStream(8192);
  private final ByteArrayOutputStream msg = new ByteArrayOutputStream(256);
  private char type;

  PgWriter(OutputStream out) {
    this.out = out;
  }

  /** Starts a message of this type. */
  PgWriter begin(char type) {
    this.type = type;
    msg.reset();
    return this;
  }

  PgWriter putByte(int b) {
    msg.write(b);
    return this;
  }

  PgWriter putShort(int v) {
    msg.write(v >>> 8);
    msg.write(v);
    return this;
  }

  PgWriter putInt(int v) {
    msg.write(v >>> 24);
    msg.write(v >>> 16);
    msg.write(v >>> 8);
    msg.write(v);
    return this;
  }

  PgWriter putBytes(byte[] b) {
    msg.write(b, 0, b.length);
    return this;
  }

  PgWriter putCString(String s) {
    putBytes(s.getBytes(StandardCharsets.UTF_8));
    msg.write(0);
    return this;
  }

  /** Ends the current message (length prefix computed here). */
  void end() {
    buf.write(type);
    int len = msg.size() + 4;
    buf.write(len >>> 24);
    buf.write(len >>> 16);
    buf.write(len >>> 8);
    buf.write(len);
    buf.write(msg.toByteArray(), 0, msg.size());
  }

  /** A raw byte outside any message (the answer to SSLRequest / GSSENCRequest). */
  void rawByte(int b) throws IOException {
    flush();
    out.write(b);
    out.flush();
  }

  int buffered() {
    return buf.size();
  }

  void flush() throws IOException {
    if (buf.size() > 0) {
      buf.writeTo(out);
      buf.reset();
    }
    out.flush();
  }
}

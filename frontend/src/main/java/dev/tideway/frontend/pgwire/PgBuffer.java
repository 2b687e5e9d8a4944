package dev.tideway.frontend.pgwire;

import java.nio.charset.StandardCharsets;

/**
 * A message body being parsed. Every read is bounds-checked: running off the end (a truncated or
 * malformed message) is a {@code 08P01} protocol violation, never an index exception.
 */
final class PgBuffer {
  private final byte[] data;
  private int pos;

  PgBuffer(byte[] data) {
    this.data = data;
  }

  int remaining() {
    return data.length - pos;
  }

  private void need(int n) {
    if (n < 0 || data.length - pos < n) {
      throw PgException.protocol(
          "invalid message format: need " + n + " bytes at offset " + pos + " of " + data.length);
    }
  }

  byte getByte() {
    need(1);
    return data[pos++];
  }

  short getShort() {
    need(2);
    short v = (short) (((data[pos] & 0xff) << 8) | (data[pos + 1] & 0xff));
    pos += 2;
    return v;
  }

  /** A count field (PostgreSQL reads them unsigned: up to 65,535 parameters or formats). */
  int getUShort() {
    return getShort() & 0xffff;
  }

  int getInt() {
    need(4);
    int v =
        ((data[pos] & 0xff) << 24)
            | ((data[pos + 1] & 0xff) << 16)
            | ((data[pos + 2] & 0xff) << 8)
            | (data[pos + 3] & 0xff);
    pos += 4;
    return v;
  }

  /** A NUL-terminated UTF-8 string. */
  String getCString() {
    for (int i = pos; i < data.length; i++) {
      if (data[i] == 0) {
        String s = new String(data, pos, i - pos, StandardCharsets.UTF_8);
        pos = i + 1;
        return s;
      }
    }
    throw PgException.protocol("invalid string in message: missing NUL terminator");
  }

  byte[] getBytes(int n) {
    need(n);
    byte[] out = new byte[n];
    System.arraycopy(data, pos, out, 0, n);
    pos += n;
    return out;
  }

  /** The rest of the body. */
  byte[] rest() {
    return getBytes(remaining());
  }

  /** Fails unless the whole body was consumed. */
  void expectEnd(String what) {
    if (remaining() != 0) {
      throw PgException.protocol(
          "invalid message format: " + remaining() + " extra bytes in " + what);
    }
  }
}

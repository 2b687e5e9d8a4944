package dev.tideway.frontend.pgwire;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Frontend message bytes for protocol tests. */
final class Messages {
  private Messages() {}

  static byte[] message(char type, byte[] body) {
    return ByteBuffer.allocate(5 + body.length)
        .put((byte) type)
        .putInt(body.length + 4)
        .put(body)
        .array();
  }

  static byte[] cstr(String s) {
    return (s + "\0").getBytes(StandardCharsets.UTF_8);
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      b.writeBytes(p);
    }
    return b.toByteArray();
  }

  static byte[] parseBindDescribeExecute(String sql) {
    byte[] parse = message('P', concat(cstr(""), cstr(sql), new byte[] {0, 0}));
    byte[] bind = message('B', concat(cstr(""), cstr(""), new byte[] {0, 0, 0, 0, 0, 0}));
    byte[] describe = message('D', concat(new byte[] {'P'}, cstr("")));
    byte[] execute = message('E', concat(cstr(""), new byte[] {0, 0, 0, 0}));
    return concat(parse, bind, describe, execute);
  }

  static byte[] sync() {
    return message('S', new byte[0]);
  }
}

package dev.tideway.frontend.pgwire;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A byte-level PostgreSQL client for protocol tests: writes raw messages, reads typed replies. */
final class RawClient implements AutoCloseable {
  final Socket socket;
  final DataOutputStream out;
  final DataInputStream in;

  record Reply(char type, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    /** The C (SQLSTATE) field of an ErrorResponse. */
    String sqlState() {
      String[] fields = text().split("\0");
      for (String f : fields) {
        if (f.startsWith("C")) {
          return f.substring(1);
        }
      }
      return null;
    }
  }

  RawClient(int port) throws IOException {
    socket = new Socket("127.0.0.1", port);
    socket.setSoTimeout(10_000);
    out = new DataOutputStream(socket.getOutputStream());
    in = new DataInputStream(socket.getInputStream());
  }

  void startup(String user, String db) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DataOutputStream d = new DataOutputStream(b);
    d.writeInt(196608);
    for (String s : new String[] {"user", user, "database", db}) {
      d.write(s.getBytes(StandardCharsets.UTF_8));
      d.write(0);
    }
    d.write(0);
    out.writeInt(b.size() + 4);
    out.write(b.toByteArray());
    out.flush();
  }

  void send(char type, byte[] body) throws IOException {
    out.write(type);
    out.writeInt(body.length + 4);
    out.write(body);
    out.flush();
  }

  void query(String sql) throws IOException {
    send('Q', (sql + "\0").getBytes(StandardCharsets.UTF_8));
  }

  Reply read() throws IOException {
    int type = in.read();
    if (type < 0) {
      throw new EOFException();
    }
    int len = in.readInt();
    byte[] body = new byte[len - 4];
    in.readFully(body);
    return new Reply((char) type, body);
  }

  /** Reads replies up to and including ReadyForQuery (or an ErrorResponse when fatal). */
  List<Reply> readUntilReady() throws IOException {
    List<Reply> out = new ArrayList<>();
    while (true) {
      Reply r = read();
      out.add(r);
      if (r.type() == 'Z') {
        return out;
      }
    }
  }

  static String types(List<Reply> replies) {
    StringBuilder sb = new StringBuilder();
    replies.forEach(r -> sb.append(r.type()));
    return sb.toString();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}

package dev.tideway.frontend.pgwire;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads frontend messages off a byte stream: the untyped startup-phase packets and the typed
 * messages after it. Never assumes one message per read (pgjdbc pipelines many per write), and
 * bounds every length before allocating.
 *
 * <p>Thread confinement: owned by its connection's thread.
 */
final class PgReader {
  /** PostgreSQL's own limit on the startup packet. */
  static final int MAX_STARTUP_LENGTH = 10_000;

  private final DataInputStream in;
  private final int maxMessageLength;

  PgReader(InputStream in, int maxMessageLength) {
    this.in = new DataInputStream(in);
    this.maxMessageLength = maxMessageLength;
  }

  /** A startup-phase packet: its code (protocol version or request code) and the rest. */
  record Startup(int code, PgBuffer body) {}

  /** A typed message: its type byte and body. */
  record Message(char type, PgBuffer body) {}

  /** Reads a startup-phase packet; null on a clean end of stream before any byte. */
  Startup readStartup() throws IOException {
    int len;
    try {
      len = in.readInt();
    } catch (EOFException e) {
      return null;
    }
    if (len < 8 || len > MAX_STARTUP_LENGTH) {
      throw PgException.protocol("invalid length of startup packet: " + len);
    }
    int code = in.readInt();
    byte[] body = new byte[len - 8];
    in.readFully(body);
    return new Startup(code, new PgBuffer(body));
  }

  /** Reads one typed message; null on a clean end of stream between messages. */
  Message readMessage() throws IOException {
    int type = in.read();
    if (type < 0) {
      return null;
    }
    int len = in.readInt();
    if (len < 4) {
      throw PgException.protocol("invalid message length " + len + " for message type " + type);
    }
    if (len - 4 > maxMessageLength) {
      throw PgException.fatal(
              SqlState.PROGRAM_LIMIT_EXCEEDED,
              "message of type '"
                  + (char) type
                  + "' is "
                  + (len - 4)
                  + " bytes, over the limit of "
                  + maxMessageLength)
          .withHint("raise the frontend's max message size");
    }
    byte[] body = new byte[len - 4];
    in.readFully(body);
    return new Message((char) type, new PgBuffer(body));
  }
}

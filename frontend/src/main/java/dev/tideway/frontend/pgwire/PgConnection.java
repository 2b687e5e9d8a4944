package dev.tideway.frontend.pgwire;

import dev.tideway.common.types.DataType;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One client connection: the startup phase (SSL/GSS refusal, CancelRequest, StartupMessage,
 * authentication), then the query loop with the simple and the extended protocol.
 *
 * <p>Thread confinement: everything runs on the connection's own thread; the only entry from
 * another thread is {@link #cancel()}, which forwards to {@link PgSession#cancel()}.
 *
 * <p>Extended-protocol invariant: after an error, every message up to the next {@code Sync} is
 * discarded ({@link #skipUntilSync}); the unnamed statement and portal are replaced by the next
 * {@code Parse ""} / {@code Bind ""}.
 */
final class PgConnection implements Runnable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(PgConnection.class);
  static final int PROTOCOL_3_0 = 196608;
  static final int SSL_REQUEST = 80877103;
  static final int GSSENC_REQUEST = 80877104;
  static final int CANCEL_REQUEST = 80877102;
  static final String SERVER_VERSION = "13.14.0";

  private Socket socket;
  private final PgServer server;
  private final int pid;
  private final int secret;
  private PgReader reader;
  private PgWriter writer;
  private PgCopy copy;
  private final Map<String, PgSession.Prepared> statements = new HashMap<>();
  private final Map<String, Portal> portals = new HashMap<>();
  private volatile PgSession session;
  private boolean skipUntilSync;

  /** A bound statement, with its result once executed and how far it has been sent. */
  private static final class Portal {
    final PgSession.Prepared prepared;
    final List<Object> params;
    final short[] resultFormats;
    PgSession.Result result;
    int sent;

    Portal(PgSession.Prepared prepared, List<Object> params, short[] resultFormats) {
      this.prepared = prepared;
      this.params = params;
      this.resultFormats = resultFormats;
    }
  }

  PgConnection(Socket socket, PgServer server, int pid, int secret) throws IOException {
    this.socket = socket;
    this.server = server;
    this.pid = pid;
    this.secret = secret;
    streams(socket);
  }

  /** Reads and writes through {@code s} from now on (the plain socket, or TLS over it). */
  private void streams(Socket s) throws IOException {
    socket = s;
    reader = new PgReader(s.getInputStream(), server.config().maxMessageBytes());
    writer = new PgWriter(s.getOutputStream());
    copy = new PgCopy(reader, writer);
  }

  int pid() {
    return pid;
  }

  int secret() {
    return secret;
  }

  /** Cancels the running statement, if any (CancelRequest from another connection). */
  void cancel() {
    PgSession s = session;
    if (s != null) {
      s.cancel();
    }
  }

  @Override
  public void run() {
    try {
      if (startup()) {
        serve();
      }
    } catch (PgException e) {
      trySendError(e);
    } catch (IOException e) {
      // the client went away
    } catch (RuntimeException | Error e) {
      // a failure no statement explains ends the connection: keep the stack for the operator
      LOG.error("connection {}: internal error; closing it", pid, e);
      trySendError(PgException.fatal(SqlState.INTERNAL_ERROR, "internal error: " + e));
    } finally {
      server.unregister(this);
      PgSession s = session;
      if (s != null) {
        s.close();
      }
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing anyway
      }
    }
  }

  private void trySendError(PgException e) {
    try {
      sendError(e);
      writer.flush();
    } catch (IOException ignored) {
      // the client went away
    }
  }

  // ---- startup ---------------------------------------------------------------------------------

  /** Runs the startup phase; false when the connection ends in it (cancel, probe, failure). */
  private boolean startup() throws IOException {
    while (true) {
      PgReader.Startup st = reader.readStartup();
      if (st == null) {
        return false;
      }
      switch (st.code()) {
        case SSL_REQUEST -> {
          writer.rawByte(server.config().tls() == null ? 'N' : 'S');
          if (server.config().tls() != null) {
            streams(PgTls.accept(server.config().tls(), socket));
          }
        }
        case GSSENC_REQUEST -> writer.rawByte('N');
        case CANCEL_REQUEST -> {
          int targetPid = st.body().getInt();
          int targetSecret = st.body().getInt();
          server.cancel(targetPid, targetSecret);
          return false;
        }
        default -> {
          return begin(st);
        }
      }
    }
  }

  private boolean begin(PgReader.Startup st) throws IOException {
    PgStartup.checkVersion(st.code());
    Map<String, String> params = PgStartup.params(st.body());
    PgStartup.negotiate(writer, st.code(), params);
    if (server.overLimit()) {
      throw PgException.fatal(SqlState.TOO_MANY_CONNECTIONS, "sorry, too many clients already");
    }
    String user = params.get("user");
    if (user == null || user.isEmpty()) {
      throw PgException.fatal(
          SqlState.INVALID_AUTHORIZATION, "no PostgreSQL user name specified in startup packet");
    }
    String database = params.getOrDefault("database", user);
    PgAuthenticator auth =
        new PgAuthenticator(server.config().auth(), server.entropy(), reader, writer);
    if (!auth.authenticate(user)) {
      return false;
    }
    session =
        server.sessions().open(PgStartup.client(pid, user, database, params, socket, this::cancel));
    PgStartup.parameterStatus(params, user)
        .forEach((k, v) -> writer.begin('S').putCString(k).putCString(v).end());
    writer.begin('K').putInt(pid).putInt(secret).end();
    readyForQuery();
    return true;
  }

  // ---- query loop ------------------------------------------------------------------------------

  private void serve() throws IOException {
    while (true) {
      PgReader.Message m = reader.readMessage();
      if (m == null || m.type() == 'X') {
        return;
      }
      if (skipUntilSync && m.type() != 'S') {
        continue;
      }
      try {
        dispatch(m);
      } catch (PgException e) {
        if (e.isFatal()) {
          throw e;
        }
        sendError(e);
        skipUntilSync = m.type() != 'Q';
      } catch (RuntimeException e) {
        sendError(PgException.error(SqlState.INTERNAL_ERROR, "internal error: " + e));
        skipUntilSync = m.type() != 'Q';
      }
    }
  }

  private void dispatch(PgReader.Message m) throws IOException {
    PgBuffer b = m.body();
    switch (m.type()) {
      case 'Q' -> simpleQuery(b.getCString());
      case 'P' -> parse(b);
      case 'B' -> bind(b);
      case 'D' -> describe(b);
      case 'E' -> execute(b);
      case 'C' -> close(b);
      case 'S' -> {
        try {
          session.sync(skipUntilSync);
        } catch (PgException e) {
          if (e.isFatal()) {
            throw e;
          }
          if (!skipUntilSync) {
            sendError(e); // after an error the batch's deferred work is void anyway
          }
        } catch (RuntimeException e) {
          if (!skipUntilSync) {
            sendError(PgException.error(SqlState.INTERNAL_ERROR, "internal error: " + e));
          }
        } finally {
          skipUntilSync = false;
        }
        readyForQuery();
      }
      case 'H' -> writer.flush();
      case 'd', 'c', 'f' -> {
        // CopyData/CopyDone/CopyFail outside COPY are ignored, as PostgreSQL does
      }
      default -> throw PgException.protocol("invalid frontend message type " + (int) m.type());
    }
  }

  private void readyForQuery() throws IOException {
    writer.begin('Z').putByte((byte) session.transactionStatus()).end();
    writer.flush();
  }

  private void simpleQuery(String sql) throws IOException {
    try {
      List<String> stmts = session.split(sql);
      if (stmts.isEmpty()) {
        writer.begin('I').end();
      }
      for (String s : stmts) {
        PgSession.Prepared p = session.prepare(s, new int[0]);
        if (!p.paramTypes().isEmpty()) {
          throw PgException.error(SqlState.UNDEFINED_OBJECT, "there is no parameter $1")
              .withPosition(1);
        }
        PgSession.Result r = session.execute(p, List.of(), this::notice);
        if (r.copyIn() != null) {
          r = copy.in(r.copyIn());
        }
        session.sync(false);
        if (r.columns() != null && r.copyOut() == null) {
          sendRowDescription(r.columns(), new short[0]);
        }
        Portal portal = new Portal(p, List.of(), new short[0]);
        portal.result = r;
        sendRows(portal, 0);
      }
    } catch (PgException e) {
      if (e.isFatal()) {
        throw e;
      }
      sendError(e);
    } catch (RuntimeException e) {
      sendError(PgException.error(SqlState.INTERNAL_ERROR, "internal error: " + e));
    }
    readyForQuery();
  }

  private void parse(PgBuffer b) {
    String name = b.getCString();
    String sql = b.getCString();
    int n = b.getUShort();
    int[] oids = new int[n];
    for (int i = 0; i < n; i++) {
      oids[i] = b.getInt();
    }
    if (!name.isEmpty() && statements.containsKey(name)) {
      throw PgException.error("42P05", "prepared statement \"" + name + "\" already exists");
    }
    List<String> stmts = session.split(sql);
    if (stmts.size() > 1) {
      throw PgException.error(
          SqlState.SYNTAX_ERROR, "cannot insert multiple commands into a prepared statement");
    }
    PgSession.Prepared p =
        stmts.isEmpty()
            ? new PgSession.Prepared(sql, List.of(), null, null)
            : session.prepare(stmts.get(0), oids);
    statements.put(name, p);
    writer.begin('1').end();
  }

  private void bind(PgBuffer b) {
    String portal = b.getCString();
    String stmt = b.getCString();
    short[] paramFormats = shorts(b);
    int n = b.getUShort();
    PgSession.Prepared p = statements.get(stmt);
    if (p == null) {
      throw PgException.error(
          SqlState.INVALID_SQL_STATEMENT_NAME,
          "prepared statement \"" + stmt + "\" does not exist");
    }
    if (n != p.paramTypes().size()) {
      // PostgreSQL: an ERROR (not FATAL) 08P01; the client skips to Sync and goes on
      throw PgException.error(
          SqlState.PROTOCOL_VIOLATION,
          "bind message supplies "
              + n
              + " parameters, but prepared statement \""
              + stmt
              + "\" requires "
              + p.paramTypes().size());
    }
    if (paramFormats.length > 1 && paramFormats.length != n) {
      throw PgException.error(
          SqlState.PROTOCOL_VIOLATION,
          "bind message has "
              + paramFormats.length
              + " parameter formats but "
              + n
              + " parameters");
    }
    List<Object> params = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int len = b.getInt();
      byte[] raw = len < 0 ? null : b.getBytes(len);
      short fmt = paramFormats.length == 0 ? 0 : paramFormats[paramFormats.length == 1 ? 0 : i];
      params.add(raw == null ? null : decodeParam(p.paramTypes().get(i), fmt, raw));
    }
    short[] resultFormats = shorts(b);
    portals.put(portal, new Portal(p, params, resultFormats));
    writer.begin('2').end();
  }

  private static Object decodeParam(DataType type, short fmt, byte[] raw) {
    return fmt == 1
        ? PgCodec.decodeBinary(type, raw)
        : PgCodec.decodeText(type, new String(raw, StandardCharsets.UTF_8));
  }

  private static short[] shorts(PgBuffer b) {
    int n = b.getUShort();
    short[] out = new short[n];
    for (int i = 0; i < n; i++) {
      out[i] = b.getShort();
      if (out[i] != 0 && out[i] != 1) {
        throw PgException.protocol("unsupported format code: " + out[i]);
      }
    }
    return out;
  }

  private void describe(PgBuffer b) {
    byte kind = b.getByte();
    String name = b.getCString();
    if (kind == 'S') {
      PgSession.Prepared p = statements.get(name);
      if (p == null) {
        throw PgException.error(
            SqlState.INVALID_SQL_STATEMENT_NAME,
            "prepared statement \"" + name + "\" does not exist");
      }
      writer.begin('t').putShort(p.paramTypes().size());
      p.paramTypes().forEach(t -> writer.putInt(PgType.of(t).oid()));
      writer.end();
      describeColumns(p.columns(), new short[0]);
    } else if (kind == 'P' && !portals.containsKey(name) && session.cursorColumns(name) != null) {
      describeColumns(session.cursorColumns(name), new short[0]); // a DECLAREd cursor is a portal
    } else if (kind == 'P') {
      Portal portal = portal(name);
      describeColumns(portal.prepared.columns(), portal.resultFormats);
    } else {
      throw PgException.protocol("invalid DESCRIBE message subtype " + kind);
    }
  }

  private void describeColumns(List<PgSession.Column> columns, short[] formats) {
    if (columns == null) {
      writer.begin('n').end();
    } else {
      sendRowDescription(columns, formats);
    }
  }

  private Portal portal(String name) {
    Portal portal = portals.get(name);
    if (portal == null) {
      throw PgException.error(
          SqlState.INVALID_CURSOR_NAME, "portal \"" + name + "\" does not exist");
    }
    return portal;
  }

  private void execute(PgBuffer b) throws IOException {
    Portal portal = portal(b.getCString());
    int maxRows = b.getInt();
    if (portal.prepared.plan() == null && portal.prepared.columns() == null) {
      writer.begin('I').end();
      return;
    }
    if (portal.result == null) {
      portal.result = session.execute(portal.prepared, portal.params, this::notice);
      if (portal.result.copyIn() != null) {
        portal.result = copy.in(portal.result.copyIn());
      }
    }
    sendRows(portal, maxRows);
  }

  private void close(PgBuffer b) {
    byte kind = b.getByte();
    String name = b.getCString();
    switch (kind) {
      case 'S' -> statements.remove(name);
      case 'P' -> portals.remove(name);
      default -> throw PgException.protocol("invalid CLOSE message subtype " + kind);
    }
    writer.begin('3').end();
  }

  // ---- results ---------------------------------------------------------------------------------

  private static short format(short[] formats, int i) {
    return formats.length == 0 ? 0 : formats[formats.length == 1 ? 0 : i];
  }

  private void sendRowDescription(List<PgSession.Column> columns, short[] formats) {
    writer.begin('T').putShort(columns.size());
    for (int i = 0; i < columns.size(); i++) {
      PgSession.Column c = columns.get(i);
      PgType t = PgType.of(c.type());
      writer.putCString(c.name()).putInt(0).putShort(0).putInt(t.oid()).putShort(t.typlen());
      writer.putInt(PgType.typmod(c.type())).putShort(format(formats, i));
    }
    writer.end();
  }

  /** Sends up to {@code maxRows} (0 = all) remaining rows, then PortalSuspended or the tag. */
  private void sendRows(Portal portal, int maxRows) throws IOException {
    PgSession.Result r = portal.result;
    if (r.copyOut() != null) {
      copy.out(r);
      return;
    }
    List<Object[]> rows = r.rows();
    int end = maxRows <= 0 ? rows.size() : Math.min(rows.size(), portal.sent + maxRows);
    for (int i = portal.sent; i < end; i++) {
      sendDataRow(r.columns(), rows.get(i), portal.resultFormats);
      if (writer.buffered() > 1 << 16) {
        writer.flush();
      }
    }
    portal.sent = end;
    if (r.columns() != null && maxRows > 0 && end < rows.size()) {
      writer.begin('s').end();
      return;
    }
    String tag = r.tag().equals("SELECT") ? "SELECT " + rows.size() : r.tag();
    writer.begin('C').putCString(tag).end();
  }

  private void sendDataRow(List<PgSession.Column> columns, Object[] row, short[] formats) {
    writer.begin('D').putShort(row.length);
    for (int i = 0; i < row.length; i++) {
      if (row[i] == null) {
        writer.putInt(-1);
        continue;
      }
      DataType t = columns.get(i).type();
      byte[] v =
          format(formats, i) == 1 ? PgCodec.encodeBinary(t, row[i]) : PgCodec.encodeText(t, row[i]);
      writer.putInt(v.length).putBytes(v);
    }
    writer.end();
  }

  private void notice(String message) {
    writer.begin('N').putByte('S').putCString("NOTICE").putByte('V').putCString("NOTICE");
    writer.putByte('C').putCString(SqlState.SUCCESSFUL_COMPLETION).putByte('M');
    writer.putCString(message).putByte(0).end();
    try {
      writer.flush();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void sendError(PgException e) {
    String severity = e.isFatal() ? "FATAL" : "ERROR";
    writer.begin('E').putByte('S').putCString(severity).putByte('V').putCString(severity);
    writer.putByte('C').putCString(e.sqlState());
    writer.putByte('M').putCString(e.getMessage() == null ? "error" : e.getMessage());
    if (e.detail() != null) {
      writer.putByte('D').putCString(e.detail());
    }
    if (e.hint() != null) {
      writer.putByte('H').putCString(e.hint());
    }
    if (e.position() > 0) {
      writer.putByte('P').putCString(Integer.toString(e.position()));
    }
    writer.putByte(0).end();
  }
}

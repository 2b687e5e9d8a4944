package dev.tideway.frontend.pgwire;

import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The startup packet's parts a connection reads and answers before authentication: the protocol
 * version, the parameters, NegotiateProtocolVersion, the ParameterStatus values a new session
 * reports, and who the client is ({@link PgSession.Client}). Stateless.
 */
final class PgStartup {
  private PgStartup() {}

  /** Protocol 3.x only: a FATAL 0A000 naming any other. */
  static void checkVersion(int code) {
    int major = code >>> 16;
    if (major != 3) {
      throw PgException.fatal(
          SqlState.FEATURE_NOT_SUPPORTED,
          "unsupported frontend protocol "
              + major
              + "."
              + (code & 0xffff)
              + ": server supports 3.0 to 3.0");
    }
  }

  static Map<String, String> params(PgBuffer body) {
    Map<String, String> params = new LinkedHashMap<>();
    while (body.remaining() > 0) {
      String name = body.getCString();
      if (name.isEmpty()) {
        break;
      }
      params.put(name, body.getCString());
    }
    return params;
  }

  /** Protocol 3.x (x > 0) or {@code _pq_.} options: answer NegotiateProtocolVersion. */
  static void negotiate(PgWriter writer, int code, Map<String, String> params) {
    List<String> unknown = params.keySet().stream().filter(k -> k.startsWith("_pq_.")).toList();
    if ((code & 0xffff) == 0 && unknown.isEmpty()) {
      return;
    }
    writer.begin('v').putInt(0).putInt(unknown.size());
    unknown.forEach(writer::putCString);
    writer.end();
  }

  /** The ParameterStatus values a new session reports, in order. */
  static Map<String, String> parameterStatus(Map<String, String> params, String user) {
    Map<String, String> ps = new LinkedHashMap<>();
    ps.put("application_name", params.getOrDefault("application_name", ""));
    ps.put("client_encoding", "UTF8");
    ps.put("DateStyle", "ISO, MDY");
    ps.put("default_transaction_read_only", "off");
    ps.put("in_hot_standby", "off");
    ps.put("integer_datetimes", "on");
    ps.put("IntervalStyle", "postgres");
    ps.put("is_superuser", "on");
    ps.put("server_encoding", "UTF8");
    ps.put("server_version", PgConnection.SERVER_VERSION);
    ps.put("session_authorization", user);
    ps.put("standard_conforming_strings", "on");
    ps.put("TimeZone", "UTC");
    return ps;
  }

  /** The client as {@code pg_stat_activity} shows it. */
  static PgSession.Client client(
      int pid,
      String user,
      String database,
      Map<String, String> params,
      Socket socket,
      Runnable cancel) {
    return new PgSession.Client(
        pid,
        user,
        database,
        params.getOrDefault("application_name", ""),
        socket.getInetAddress() == null ? "" : socket.getInetAddress().getHostAddress(),
        socket.getPort(),
        cancel);
  }
}

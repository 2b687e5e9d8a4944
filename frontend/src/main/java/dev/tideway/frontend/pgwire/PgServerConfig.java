package dev.tideway.frontend.pgwire;

/**
 * Server settings.
 *
 * @param host address to bind ({@code 127.0.0.1}, {@code 0.0.0.0})
 * @param port port to bind, 0 for any free port
 * @param auth how clients authenticate
 * @param maxMessageBytes the largest message body accepted; larger ones get FATAL {@code 54000}
 * @param maxConnections connections served at once; more get FATAL {@code 53300}
 * @param tls the context of TLS connections ({@link PgTls}), or null to answer {@code SSLRequest}
 *     with {@code N}
 */
public record PgServerConfig(
    String host,
    int port,
    PgAuth auth,
    int maxMessageBytes,
    int maxConnections,
    javax.net.ssl.SSLContext tls) {

  public PgServerConfig(
      String host, int port, PgAuth auth, int maxMessageBytes, int maxConnections) {
    this(host, port, auth, maxMessageBytes, maxConnections, null);
  }

  /** Trust auth on loopback, 16 MiB messages, 100 connections. */
  public static PgServerConfig defaults(int port) {
    return new PgServerConfig("127.0.0.1", port, PgAuth.trust(), 16 << 20, 100);
  }

  public PgServerConfig withAuth(PgAuth a) {
    return new PgServerConfig(host, port, a, maxMessageBytes, maxConnections, tls);
  }

  public PgServerConfig withMaxMessageBytes(int n) {
    return new PgServerConfig(host, port, auth, n, maxConnections, tls);
  }

  /** TLS for clients that ask for it (null: none). */
  public PgServerConfig withTls(javax.net.ssl.SSLContext context) {
    return new PgServerConfig(host, port, auth, maxMessageBytes, maxConnections, context);
  }
}

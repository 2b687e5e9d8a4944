package dev.tideway.frontend.pgwire;

import dev.tideway.common.exec.Threads;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Accepts PostgreSQL clients and serves each on its own thread ({@code pg-conn-N}). One failing
 * connection (malformed bytes, wrong password, a crash in a statement) ends only itself.
 *
 * <p>Thread confinement: {@link #start()} and {@link #close()} from the owner; the accept loop on
 * {@code pg-accept-1}; the registry of live connections (for CancelRequest) is a concurrent map
 * written by connection threads as they start and end.
 */
public final class PgServer implements AutoCloseable {
  private final PgServerConfig config;
  private final PgSession.Factory sessions;
  private final Entropy entropy;
  private final Map<Integer, PgConnection> live = new ConcurrentHashMap<>();
  private final AtomicInteger nextPid = new AtomicInteger(1000);
  private final ThreadFactory connThreads = Threads.named("pg-conn", true);
  private ServerSocket serverSocket;

  public PgServer(PgServerConfig config, PgSession.Factory sessions, Entropy entropy) {
    this.config = config;
    this.sessions = sessions;
    this.entropy = entropy;
  }

  public PgServer(PgServerConfig config, PgSession.Factory sessions) {
    this(config, sessions, Entropy.secure());
  }

  /** Binds and starts accepting; returns the bound port. */
  public int start() throws IOException {
    serverSocket = new ServerSocket();
    serverSocket.setReuseAddress(true);
    serverSocket.bind(new InetSocketAddress(InetAddress.getByName(config.host()), config.port()));
    Threads.named("pg-accept", true).newThread(this::acceptLoop).start();
    return serverSocket.getLocalPort();
  }

  public int port() {
    return serverSocket.getLocalPort();
  }

  private void acceptLoop() {
    while (!serverSocket.isClosed()) {
      try {
        Socket s = serverSocket.accept();
        s.setTcpNoDelay(true);
        byte[] key = new byte[4];
        entropy.fill(key);
        PgConnection c =
            new PgConnection(s, this, nextPid.incrementAndGet(), ByteBuffer.wrap(key).getInt());
        live.put(c.pid(), c);
        connThreads.newThread(c).start();
      } catch (IOException e) {
        // closed, or one failed accept; keep serving until closed
      }
    }
  }

  PgServerConfig config() {
    return config;
  }

  PgSession.Factory sessions() {
    return sessions;
  }

  Entropy entropy() {
    return entropy;
  }

  boolean overLimit() {
    return live.size() > config.maxConnections();
  }

  void unregister(PgConnection c) {
    live.remove(c.pid(), c);
  }

  /** CancelRequest: cancels the connection's statement when pid and secret match. */
  void cancel(int pid, int secret) {
    PgConnection c = live.get(pid);
    if (c != null && c.secret() == secret) {
      c.cancel();
    }
  }

  /** Connections being served. */
  public int liveConnections() {
    return live.size();
  }

  @Override
  public void close() throws IOException {
    if (serverSocket != null) {
      serverSocket.close();
    }
  }
}

package dev.tideway.it.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ports for the processes a test starts, below Linux's ephemeral range (32768-60999 by default). A
 * port the kernel hands out for {@code new ServerSocket(0)} is an ephemeral one, and once the probe
 * closes it any outgoing connection (a ZooKeeper client, a Pekko association) may take it as its
 * local port before the process under test binds it; CI saw "Address already in use" for a meta
 * HTTP port that way. Ports below the range are never picked for outgoing connections. Each port is
 * probed with a bind and handed out once per JVM; JVMs start at different offsets by process id.
 */
public final class TestPorts {
  private static final int LOW = 20_000;
  private static final int HIGH = 32_000;
  private static final AtomicInteger NEXT =
      new AtomicInteger(LOW + (int) (ProcessHandle.current().pid() % 600) * 20);

  private TestPorts() {}

  /** A port nothing listens on right now, not in the ephemeral range, not handed out before. */
  public static int free() throws IOException {
    for (int i = 0; i < HIGH - LOW; i++) {
      int port = LOW + Math.floorMod(NEXT.getAndIncrement() - LOW, HIGH - LOW);
      try (ServerSocket s = new ServerSocket()) {
        s.setReuseAddress(false);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return port;
      } catch (IOException inUse) {
        // taken: try the next one
      }
    }
    throw new IOException("no free port in [" + LOW + ", " + HIGH + ")");
  }
}

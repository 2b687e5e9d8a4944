package dev.tideway.meta.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import java.io.File;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/**
 * An in-process ZooKeeper (Curator's {@code TestingServer}, tick 100 ms) plus helpers: clients with
 * short timeouts, a real server-side session expiry, and polling with a deadline.
 */
public final class ZkFixture implements AutoCloseable {
  public static final int SESSION_TIMEOUT_MS = 2_000;

  private final TestingServer server;

  public ZkFixture() throws Exception {
    this(null);
  }

  /** A server keeping its data in {@code dataDir} (null: a temp dir deleted on close). */
  public ZkFixture(File dataDir) throws Exception {
    InstanceSpec spec = new InstanceSpec(dataDir, -1, -1, -1, dataDir == null, -1, 100, 60);
    server = new TestingServer(spec, true);
  }

  public String connectString() {
    return server.getConnectString();
  }

  public CuratorFramework newClient() {
    CuratorFramework c =
        CuratorFrameworkFactory.newClient(
            connectString(), SESSION_TIMEOUT_MS, 2_000, new RetryNTimes(50, 100));
    c.start();
    return c;
  }

  /**
   * Expires {@code client}'s session on the server (its ephemeral znodes vanish at once), the way a
   * long GC pause or a partition would: a second handle joins the same session and closes it.
   */
  public void expireSession(CuratorFramework client) throws Exception {
    ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
    CountDownLatch connected = new CountDownLatch(1);
    Watcher w =
        e -> {
          if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
            connected.countDown();
          }
        };
    ZooKeeper killer =
        new ZooKeeper(
            connectString(), SESSION_TIMEOUT_MS, w, zk.getSessionId(), zk.getSessionPasswd());
    assertThat(connected.await(10, TimeUnit.SECONDS)).as("second handle connected").isTrue();
    killer.close();
  }

  /** Polls {@code condition} every 20 ms; fails naming {@code what} after {@code timeoutMs}. */
  public static long awaitTrue(String what, long timeoutMs, BooleanSupplier condition)
      throws InterruptedException {
    Clock clock = Clock.system();
    long start = clock.nanoTime();
    long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (!condition.getAsBoolean()) {
      if (clock.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeoutMs + " ms waiting for " + what);
      }
      clock.sleepMillis(20);
    }
    return TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - start);
  }

  public void stop() throws Exception {
    server.stop();
  }

  public void restart() throws Exception {
    server.restart();
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}

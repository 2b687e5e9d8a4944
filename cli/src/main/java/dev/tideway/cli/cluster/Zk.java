package dev.tideway.cli.cluster;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The ZooKeeper client every role process opens (one per process). */
final class Zk {
  private Zk() {}

  /** Connects, or fails with one clear line after {@code timeoutMs}. */
  static CuratorFramework connect(String connect, int timeoutMs) throws InterruptedException {
    CuratorFramework c =
        CuratorFrameworkFactory.newClient(
            connect, 10_000, timeoutMs, new ExponentialBackoffRetry(100, 10, 2_000));
    c.start();
    if (!c.blockUntilConnected(timeoutMs, TimeUnit.MILLISECONDS)) {
      c.close();
      throw new IllegalStateException(
          "cannot reach ZooKeeper at " + connect + " within " + timeoutMs + " ms");
    }
    return c;
  }
}

package dev.tideway.protocol.store;

import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Plain reads of the metadata store (the layout of {@link MetaPaths}): what every process may do.
 * The meta leader's writes, fenced on its term, are the meta service's {@code FencedMetaStore}, a
 * reader that also writes.
 *
 * <p>Thread-safe (the Curator client is).
 */
public class MetaStoreReader {
  private final CuratorFramework client;
  private final MetaPaths paths;

  public MetaStoreReader(CuratorFramework client, MetaPaths paths) {
    this.client = client;
    this.paths = paths;
  }

  public final MetaPaths paths() {
    return paths;
  }

  /** The data of {@code path}, or empty if it does not exist. */
  public Optional<byte[]> read(String path) {
    try {
      return Optional.of(client.getData().forPath(path));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    } catch (Exception e) {
      throw classify("read " + path, e);
    }
  }

  /** The child names of {@code path}, empty if it does not exist. */
  public List<String> children(String path) {
    try {
      return client.getChildren().forPath(path);
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    } catch (Exception e) {
      throw classify("list " + path, e);
    }
  }

  public static MetaStoreException classify(String what, Exception e) {
    if (e instanceof KeeperException.ConnectionLossException
        || e instanceof KeeperException.SessionExpiredException
        || e instanceof KeeperException.OperationTimeoutException) {
      return new MetaStoreException(MetaStoreException.Reason.UNKNOWN_OUTCOME, what, e);
    }
    if (e instanceof InterruptedException) {
      Thread.currentThread().interrupt();
      return new MetaStoreException(
          MetaStoreException.Reason.UNKNOWN_OUTCOME, what + " (interrupted)", e);
    }
    return new MetaStoreException(MetaStoreException.Reason.FAILED, what, e);
  }
}

package dev.tideway.storage.api;

import dev.tideway.common.config.TidewayConfig;
import dev.tideway.storage.engine.StorageEngine;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import dev.tideway.storage.objectstore.ObjectStore;
import dev.tideway.storage.objectstore.S3ObjectStore;
import dev.tideway.storage.objectstore.S3Settings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/** Opens a state store: the entry point for other modules. */
public final class StateStores {
  private StateStores() {}

  /**
   * Opens the store at {@code url}: {@code file:///dir}, {@code s3://bucket/prefix} (with the
   * process's {@code tideway.storage.s3} settings) or {@code memory://}.
   */
  public static Storage open(String url, StorageOptions options) {
    return open(url, options, StorageRole.standalone());
  }

  /**
   * Opens the store at {@code url} for a process with {@code role}: the meta leader opens it as
   * {@link StorageRole#versionOwner()}, every compute node and frontend as {@link
   * StorageRole#follower(int)} with its own id space, all on the same URL.
   */
  public static Storage open(String url, StorageOptions options, StorageRole role) {
    return open(url, options, role, null);
  }

  /**
   * As {@link #open(String, StorageOptions, StorageRole)}, an {@code s3://} URL with {@code s3}
   * (null: the process's configuration).
   */
  public static Storage open(String url, StorageOptions options, StorageRole role, S3Settings s3) {
    ObjectStore store;
    try {
      if (url.startsWith("s3:")) {
        store =
            S3ObjectStore.open(url, s3 != null ? s3 : S3Settings.from(TidewayConfig.ofProcess()));
      } else if (url.startsWith("file:")) {
        store = new LocalFsObjectStore(Path.of(URI.create(url)));
      } else if (url.startsWith("memory:")) {
        store = new InMemoryObjectStore();
      } else {
        throw new IllegalArgumentException(
            "unsupported state store URL '"
                + url
                + "' (use file:///DIR, s3://BUCKET/PREFIX or memory://)");
      }
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot open state store at " + url, e);
    }
    try {
      return open(store, options, role);
    } catch (RuntimeException e) {
      store.close(); // the engine did not take it: its client and connections go with the failure
      throw e;
    }
  }

  /**
   * Opens a store over an {@link ObjectStore} implementation (tests, other backends); closing the
   * store closes {@code store}.
   */
  public static Storage open(ObjectStore store, StorageOptions options) {
    return StorageEngine.open(store, options);
  }

  /** As {@link #open(ObjectStore, StorageOptions)} for a process with {@code role}. */
  public static Storage open(ObjectStore store, StorageOptions options, StorageRole role) {
    return StorageEngine.open(store, options, role);
  }
}

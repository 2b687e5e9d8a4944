package dev.tideway.storage.api;

import dev.tideway.storage.engine.StorageEngine;
import dev.tideway.storage.objectstore.InMemoryObjectStore;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import dev.tideway.storage.objectstore.ObjectStore;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/** Opens a state store: the entry point for other modules. */
public final class StateStores {
  private StateStores() {}

  /** Opens the store at {@code url}: {@code file:///dir} or {@code memory://}. */
  public static Storage open(String url, StorageOptions options) {
    return open(url, options, StorageRole.standalone());
  }

  /**
   * Opens the store at {@code url} for a process with {@code role}: the meta leader opens it as
   * {@link StorageRole#versionOwner()}, every compute node and frontend as {@link
   * StorageRole#follower(int)} with its own id space, all on the same URL.
   */
  public static Storage open(String url, StorageOptions options, StorageRole role) {
    ObjectStore store;
    try {
      if (url.startsWith("file:")) {
        store = new LocalFsObjectStore(Path.of(URI.create(url)));
      } else if (url.startsWith("memory:")) {
        store = new InMemoryObjectStore();
      } else {
        throw new IllegalArgumentException(
            "unsupported state store URL '" + url + "' (use file:///DIR or memory://)");
      }
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot open state store at " + url, e);
    }
    return open(store, options, role);
  }

  /** Opens a store over an {@link ObjectStore} implementation (tests, other backends). */
  public static Storage open(ObjectStore store, StorageOptions options) {
    return StorageEngine.open(store, options);
  }

  /** As {@link #open(ObjectStore, StorageOptions)} for a process with {@code role}. */
  public static Storage open(ObjectStore store, StorageOptions options, StorageRole role) {
    return StorageEngine.open(store, options, role);
  }
}

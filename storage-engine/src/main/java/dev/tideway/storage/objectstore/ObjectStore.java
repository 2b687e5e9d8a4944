package dev.tideway.storage.objectstore;

import java.io.IOException;
import java.util.List;

/**
 * Where SSTs and version files live: a flat namespace of immutable objects addressed by {@code /}
 * separated paths: {@link LocalFsObjectStore} on a directory (local or a shared volume), {@link
 * S3ObjectStore} on S3 and S3-compatible stores, {@link InMemoryObjectStore} for tests.
 *
 * <p>Contract: an object becomes visible only when its {@link ObjectWriter#commit()} returns, and
 * it is then complete and durable (a reader never sees a half-written object); objects are never
 * modified after commit, only deleted. Nothing relies on rename or append: an upload is one object
 * made visible whole. A failure to reach the store is an {@link IOException} (an {@link
 * ObjectStoreUnavailableException} where the implementation can tell), never damaged data.
 * Implementations are thread-safe.
 */
public interface ObjectStore extends AutoCloseable {
  /** Starts an upload of {@code path}; nothing is visible until {@link ObjectWriter#commit()}. */
  ObjectWriter create(String path) throws IOException;

  /** Writes a whole small object atomically. */
  default void put(String path, byte[] bytes) throws IOException {
    try (ObjectWriter w = create(path)) {
      w.write(bytes);
      w.commit();
    }
  }

  /**
   * Writes a whole small object unless {@code path} exists: false, and nothing written, when it
   * does. Atomic against a concurrent writer of the same path (a hard link on a directory, {@code
   * If-None-Match: *} on S3): of two writers exactly one gets true. The version log's deltas are
   * written this way, so a deposed version owner can never replace what a newer one committed.
   */
  boolean putIfAbsent(String path, byte[] bytes) throws IOException;

  /** Reads a whole object; {@link java.io.FileNotFoundException} naming the path if absent. */
  byte[] read(String path) throws IOException;

  /** Opens an object for positional reads. */
  RandomAccessObject open(String path) throws IOException;

  /** The committed objects whose path starts with {@code prefix}, sorted. */
  List<String> list(String prefix) throws IOException;

  boolean exists(String path) throws IOException;

  /** Deletes an object; deleting an absent object is not an error. */
  void delete(String path) throws IOException;

  /** A URL-like description for messages ({@code file:///data/tideway}). */
  String describe();

  /**
   * Releases the store's resources (its client and connections); the engine that uses it calls it.
   */
  @Override
  default void close() {}
}

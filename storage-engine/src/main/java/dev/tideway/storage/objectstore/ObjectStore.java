package dev.tideway.storage.objectstore;

import java.io.IOException;
import java.util.List;

/**
 * Where SSTs and version files live: a flat namespace of immutable objects addressed by {@code /}
 * separated paths. This is the SPI an S3 or HDFS implementation fills later; {@link
 * LocalFsObjectStore} is the default and {@link InMemoryObjectStore} serves tests.
 *
 * <p>Contract: an object becomes visible only when its {@link ObjectWriter#commit()} returns, and
 * it is then complete and durable (a reader never sees a half-written object); objects are never
 * modified after commit, only deleted. Implementations are thread-safe.
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

  @Override
  default void close() throws IOException {}
}

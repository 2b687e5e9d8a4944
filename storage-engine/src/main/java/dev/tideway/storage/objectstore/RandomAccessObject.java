package dev.tideway.storage.objectstore;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Positional reads of one committed object. Thread-safe: reads carry their own position. */
public interface RandomAccessObject extends Closeable {
  String path();

  long length() throws IOException;

  /** Fills {@code dst} from {@code position}; {@link java.io.EOFException} past the end. */
  void readFully(long position, ByteBuffer dst) throws IOException;
}

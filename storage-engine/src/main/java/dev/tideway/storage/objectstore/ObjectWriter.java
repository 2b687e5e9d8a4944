package dev.tideway.storage.objectstore;

import java.io.IOException;
import java.io.OutputStream;

/**
 * An upload in progress. Bytes written are invisible until {@link #commit()}; {@link #close()}
 * without a commit aborts and leaves nothing behind. Confined to one thread.
 */
public abstract class ObjectWriter extends OutputStream {
  /** Bytes written so far. */
  public abstract long position();

  /** Makes the object durable and visible under its path, atomically. */
  public abstract void commit() throws IOException;

  /** The destination path. */
  public abstract String path();

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }
}

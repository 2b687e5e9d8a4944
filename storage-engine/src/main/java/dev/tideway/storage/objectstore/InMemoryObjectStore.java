package dev.tideway.storage.objectstore;

import dev.tideway.common.check.Checks;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * An object store in the heap, for tests. Same visibility contract as the local one: an object
 * appears whole at commit. {@link #corrupt} flips a byte to test the readers' verification.
 */
public final class InMemoryObjectStore implements ObjectStore {
  private final ConcurrentMap<String, byte[]> objects = new ConcurrentHashMap<>();

  @Override
  public ObjectWriter create(String path) {
    return new ObjectWriter() {
      private final ByteArrayOutputStream out = new ByteArrayOutputStream();
      private boolean done;

      @Override
      public void write(byte[] b, int off, int len) {
        Checks.checkState(!done, "upload of %s already finished", path);
        out.write(b, off, len);
      }

      @Override
      public long position() {
        return out.size();
      }

      @Override
      public void commit() {
        Checks.checkState(!done, "upload of %s already finished", path);
        done = true;
        objects.put(path, out.toByteArray());
      }

      @Override
      public String path() {
        return path;
      }

      @Override
      public void close() {
        done = true;
      }
    };
  }

  @Override
  public boolean putIfAbsent(String path, byte[] bytes) {
    return objects.putIfAbsent(path, bytes.clone()) == null;
  }

  private byte[] get(String path) throws FileNotFoundException {
    byte[] b = objects.get(path);
    if (b == null) {
      throw new FileNotFoundException("object " + path + " not found in " + describe());
    }
    return b;
  }

  @Override
  public byte[] read(String path) throws IOException {
    return get(path).clone();
  }

  @Override
  public RandomAccessObject open(String path) throws IOException {
    byte[] b = get(path);
    return new RandomAccessObject() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public long length() {
        return b.length;
      }

      @Override
      public void readFully(long position, ByteBuffer dst) throws IOException {
        if (position + dst.remaining() > b.length) {
          throw new EOFException("read past the end of " + path + " at " + position);
        }
        dst.put(b, (int) position, dst.remaining());
      }

      @Override
      public void close() {}
    };
  }

  @Override
  public List<String> list(String prefix) {
    return objects.keySet().stream().filter(p -> p.startsWith(prefix)).sorted().toList();
  }

  @Override
  public boolean exists(String path) {
    return objects.containsKey(path);
  }

  @Override
  public void delete(String path) {
    objects.remove(path);
  }

  /** Flips the bits of the byte at {@code offset} (negative: from the end) of an object. */
  public void corrupt(String path, long offset) throws FileNotFoundException {
    byte[] b = get(path).clone();
    int i = (int) (offset < 0 ? b.length + offset : offset);
    b[i] = (byte) ~b[i];
    objects.put(path, b);
  }

  @Override
  public String describe() {
    return "memory://";
  }
}

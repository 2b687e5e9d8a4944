package dev.tideway.storage.objectstore;

import dev.tideway.common.fault.InjectedFault;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An object store that fails on command, for fault tests. Fault model: each {@link Rule} names an
 * {@link Operation}, a path prefix and which matching call fails (the n-th, or every one); a failed
 * call throws {@link InjectedFault} (never an {@link IOException}, so an injected failure cannot be
 * mistaken for a real one). A failed {@link Operation#COMMIT} leaves nothing visible ("crash before
 * rename"); {@link Operation#COMMIT_AFTER} makes the object visible and then throws (an ambiguous
 * outcome: the caller cannot know the upload succeeded). Thread-safe.
 */
public final class FailingObjectStore implements ObjectStore {
  /** The calls a rule can fail. */
  public enum Operation {
    CREATE,
    WRITE,
    COMMIT,
    COMMIT_AFTER,
    READ,
    OPEN,
    LIST,
    DELETE
  }

  /**
   * Fails the {@code nth} (1-based; 0 = every) call of {@code op} on paths under {@code prefix}.
   */
  public record Rule(Operation op, String prefix, long nth, AtomicLong seen) {
    public Rule(Operation op, String prefix, long nth) {
      this(op, prefix, nth, new AtomicLong());
    }
  }

  private final ObjectStore delegate;
  private final List<Rule> rules = new CopyOnWriteArrayList<>();

  public FailingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  public FailingObjectStore fail(Operation op, String prefix, long nth) {
    rules.add(new Rule(op, prefix, nth));
    return this;
  }

  public void heal() {
    rules.clear();
  }

  private void maybeFail(Operation op, String path) {
    for (Rule r : rules) {
      if (r.op() == op && path.startsWith(r.prefix())) {
        long n = r.seen().incrementAndGet();
        if (r.nth() == 0 || r.nth() == n) {
          throw new InjectedFault("objectstore." + op.name().toLowerCase() + ":" + path);
        }
      }
    }
  }

  @Override
  public ObjectWriter create(String path) throws IOException {
    maybeFail(Operation.CREATE, path);
    ObjectWriter w = delegate.create(path);
    return new ObjectWriter() {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        maybeFail(Operation.WRITE, path);
        w.write(b, off, len);
      }

      @Override
      public long position() {
        return w.position();
      }

      @Override
      public void commit() throws IOException {
        maybeFail(Operation.COMMIT, path);
        w.commit();
        maybeFail(Operation.COMMIT_AFTER, path);
      }

      @Override
      public String path() {
        return path;
      }

      @Override
      public void close() throws IOException {
        w.close();
      }
    };
  }

  /** Fails as an upload of a new object would: at create, write, commit or after the commit. */
  @Override
  public boolean putIfAbsent(String path, byte[] bytes) throws IOException {
    maybeFail(Operation.CREATE, path);
    maybeFail(Operation.WRITE, path);
    maybeFail(Operation.COMMIT, path);
    boolean written = delegate.putIfAbsent(path, bytes);
    maybeFail(Operation.COMMIT_AFTER, path);
    return written;
  }

  @Override
  public byte[] read(String path) throws IOException {
    maybeFail(Operation.READ, path);
    return delegate.read(path);
  }

  @Override
  public RandomAccessObject open(String path) throws IOException {
    maybeFail(Operation.OPEN, path);
    RandomAccessObject o = delegate.open(path);
    return new RandomAccessObject() {
      @Override
      public String path() {
        return path;
      }

      @Override
      public long length() throws IOException {
        return o.length();
      }

      @Override
      public void readFully(long position, ByteBuffer dst) throws IOException {
        maybeFail(Operation.READ, path);
        o.readFully(position, dst);
      }

      @Override
      public void close() throws IOException {
        o.close();
      }
    };
  }

  @Override
  public List<String> list(String prefix) throws IOException {
    maybeFail(Operation.LIST, prefix);
    return delegate.list(prefix);
  }

  @Override
  public boolean exists(String path) throws IOException {
    return delegate.exists(path);
  }

  @Override
  public void delete(String path) throws IOException {
    maybeFail(Operation.DELETE, path);
    delegate.delete(path);
  }

  @Override
  public String describe() {
    return "failing+" + delegate.describe();
  }
}

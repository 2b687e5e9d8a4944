package dev.tideway.storage.objectstore;

import dev.tideway.common.check.Checks;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.common.fault.InjectedFault;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The object store on a local directory. An upload writes {@code <path>.tmp-<n>} beside its target,
 * fsyncs it, renames it atomically over the target and fsyncs the directory, so a crash leaves
 * either nothing or the whole object. Leftover temporaries (from a crash mid-upload) are never
 * listed and are removed by {@link #deleteTemporaries()}. Thread-safe.
 */
public final class LocalFsObjectStore implements ObjectStore {
  /** Every write fails while on (an object store that refuses writes for a while). */
  public static final String FP_WRITE = FailPoints.declare("objectstore.write");

  private static final String TMP = ".tmp-";
  private final Path root;
  private final AtomicLong tmpCounter = new AtomicLong();

  public LocalFsObjectStore(Path root) throws IOException {
    this.root = root.toAbsolutePath().normalize();
    Files.createDirectories(this.root);
  }

  public Path root() {
    return root;
  }

  private Path resolve(String path) {
    Checks.checkArgument(
        !path.isEmpty() && !path.startsWith("/") && !path.contains(".."),
        "object path must be relative without '..', got '%s'",
        path);
    return root.resolve(path);
  }

  @Override
  public ObjectWriter create(String path) throws IOException {
    try {
      FailPoints.hit(FP_WRITE);
    } catch (InjectedFault f) {
      throw new IOException("object store write of " + path + " failed: injected fault", f);
    }
    Path target = resolve(path);
    Files.createDirectories(target.getParent());
    Path tmp = target.resolveSibling(target.getFileName() + TMP + tmpCounter.incrementAndGet());
    FileChannel ch =
        FileChannel.open(
            tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
    return new LocalWriter(path, target, tmp, ch);
  }

  /**
   * Writes a temporary beside the target, fsyncs it and hard-links it to the target: {@code
   * link(2)} fails when the target exists, so of two writers exactly one succeeds, on a local disk
   * and on NFS alike. The temporary is removed either way.
   */
  @Override
  public boolean putIfAbsent(String path, byte[] bytes) throws IOException {
    try {
      FailPoints.hit(FP_WRITE);
    } catch (InjectedFault f) {
      throw new IOException("object store write of " + path + " failed: injected fault", f);
    }
    Path target = resolve(path);
    Files.createDirectories(target.getParent());
    // unique across processes: two owners may race on one path, and each removes only its own
    Path tmp = target.resolveSibling(target.getFileName() + TMP + java.util.UUID.randomUUID());
    try {
      try (FileChannel ch =
          FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
          ch.write(b);
        }
        ch.force(true);
      }
      try {
        Files.createLink(target, tmp);
      } catch (FileAlreadyExistsException e) {
        return false;
      } catch (UnsupportedOperationException | java.nio.file.FileSystemException e) {
        // a volume without hard links (SMB, some FUSE mounts): a move that refuses to replace;
        // not atomic against a concurrent writer, so the meta leader's fencing is the guard there
        try {
          Files.move(tmp, target);
        } catch (FileAlreadyExistsException exists) {
          return false;
        }
      }
      fsyncDirectory(target.getParent());
      return true;
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  @Override
  public byte[] read(String path) throws IOException {
    try {
      return Files.readAllBytes(resolve(path));
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("object " + path + " not found in " + describe());
    }
  }

  @Override
  public RandomAccessObject open(String path) throws IOException {
    try {
      return new LocalObject(path, resolve(path));
    } catch (NoSuchFileException e) {
      throw new FileNotFoundException("object " + path + " not found in " + describe());
    }
  }

  /**
   * Lists in path order, descending only into directories on the prefix's path. Other processes of
   * the cluster create and delete objects all the time (uploads, vacuum, pruning of the version
   * log), so an entry may vanish between reading its directory and looking at it: it is then left
   * out, never an error. Before, a walk of the whole store read the attributes of every SST, failed
   * with {@code NoSuchFileException} on one vacuumed under it, and so failed a follower's catch-up
   * of the version log ("could not follow the committed version") now and then.
   */
  @Override
  public List<String> list(String prefix) throws IOException {
    List<String> out = new ArrayList<>();
    collect(root, prefix, false, out);
    out.sort(null);
    return out;
  }

  /**
   * Adds the relative paths of the files under {@code dir} that start with {@code prefix}: upload
   * temporaries only when {@code temporaries}, every other file otherwise.
   */
  private void collect(Path dir, String prefix, boolean temporaries, List<String> out)
      throws IOException {
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String rel = root.relativize(p).toString().replace('\\', '/');
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          String asDir = rel + "/";
          if (asDir.startsWith(prefix) || prefix.startsWith(asDir)) {
            collect(p, prefix, temporaries, out);
          }
        } else if (rel.contains(TMP) == temporaries
            && rel.startsWith(prefix)
            && Files.isRegularFile(p)) {
          out.add(rel);
        }
      }
    } catch (NoSuchFileException gone) {
      // the directory went away before it was read: nothing under it is left to list
    } catch (DirectoryIteratorException e) {
      if (Files.exists(dir)) {
        throw e.getCause(); // a partial listing could hide an object (an SST id in use)
      }
    }
  }

  @Override
  public boolean exists(String path) {
    return Files.isRegularFile(resolve(path));
  }

  @Override
  public void delete(String path) throws IOException {
    Files.deleteIfExists(resolve(path));
  }

  /** Removes upload temporaries left by a crash; call only when no upload is in flight. */
  public int deleteTemporaries() throws IOException {
    return deleteTemporaries(target -> true);
  }

  /**
   * Removes the upload temporaries whose target object path {@code ours} accepts. Several processes
   * share one store; each may clear only what its own crashed predecessor left, never another
   * process's upload in flight.
   */
  public int deleteTemporaries(java.util.function.Predicate<String> ours) throws IOException {
    List<String> tmps = new ArrayList<>();
    collect(root, "", true, tmps); // other processes' files may come and go meanwhile
    int deleted = 0;
    for (String rel : tmps) {
      if (ours.test(targetOf(rel))) {
        Files.deleteIfExists(root.resolve(rel));
        deleted++;
      }
    }
    return deleted;
  }

  /** The object path a temporary was uploading ({@code sst/5.parquet} for its {@code .tmp-3}). */
  private static String targetOf(String tmp) {
    return tmp.substring(0, tmp.lastIndexOf(TMP));
  }

  @Override
  public String describe() {
    return root.toUri().toString();
  }

  private static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }

  private static final class LocalWriter extends ObjectWriter {
    private final String path;
    private final Path target;
    private final Path tmp;
    private final FileChannel ch;
    private final ByteBuffer buf = ByteBuffer.allocate(64 << 10);
    private long pos;
    private boolean done;

    LocalWriter(String path, Path target, Path tmp, FileChannel ch) {
      this.path = path;
      this.target = target;
      this.tmp = tmp;
      this.ch = ch;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Checks.checkState(!done, "upload of %s already finished", path);
      pos += len;
      while (len > 0) {
        if (!buf.hasRemaining()) {
          drain();
        }
        int n = Math.min(len, buf.remaining());
        buf.put(b, off, n);
        off += n;
        len -= n;
      }
    }

    private void drain() throws IOException {
      buf.flip();
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      buf.clear();
    }

    @Override
    public long position() {
      return pos;
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public void commit() throws IOException {
      Checks.checkState(!done, "upload of %s already finished", path);
      drain();
      ch.force(true);
      ch.close();
      done = true;
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      fsyncDirectory(target.getParent());
    }

    @Override
    public void close() throws IOException {
      if (!done) {
        done = true;
        ch.close();
        Files.deleteIfExists(tmp);
      }
    }
  }

  /**
   * A file opened for positional reads, shared by every thread reading that SST. A {@link
   * FileChannel} is interruptible: a thread interrupted while it reads (an actor dropped by a
   * recovery) closes the channel for every reader. So a read that finds the channel closed by
   * someone else reopens it and retries; the interrupted thread itself still gets its {@link
   * ClosedByInterruptException}. Thread-safe.
   */
  private static final class LocalObject implements RandomAccessObject {
    private static final int MAX_REOPENS = 3;

    private final String path;
    private final Path file;
    private volatile FileChannel ch;
    private volatile boolean closed;

    LocalObject(String path, Path file) throws IOException {
      this.path = path;
      this.file = file;
      this.ch = FileChannel.open(file, StandardOpenOption.READ);
    }

    @Override
    public String path() {
      return path;
    }

    @Override
    public long length() throws IOException {
      for (int attempt = 0; ; attempt++) {
        FileChannel c = ch;
        try {
          return c.size();
        } catch (ClosedByInterruptException e) {
          reopenAfter(c);
          throw e;
        } catch (ClosedChannelException e) {
          if (closed || attempt >= MAX_REOPENS) {
            throw e;
          }
          reopenAfter(c);
        }
      }
    }

    @Override
    public void readFully(long position, ByteBuffer dst) throws IOException {
      int start = dst.position();
      for (int attempt = 0; ; attempt++) {
        FileChannel c = ch;
        try {
          long p = position + (dst.position() - start);
          while (dst.hasRemaining()) {
            int n = c.read(dst, p);
            if (n < 0) {
              throw new EOFException("read past the end of " + path + " at " + p);
            }
            p += n;
          }
          return;
        } catch (ClosedByInterruptException e) {
          reopenAfter(c);
          throw e;
        } catch (ClosedChannelException e) {
          if (closed || attempt >= MAX_REOPENS) {
            throw e;
          }
          reopenAfter(c);
        }
      }
    }

    /** Replaces {@code broken} with a fresh channel unless another thread did, or we closed. */
    private synchronized void reopenAfter(FileChannel broken) throws IOException {
      if (!closed && ch == broken) {
        ch = FileChannel.open(file, StandardOpenOption.READ);
      }
    }

    @Override
    public synchronized void close() throws IOException {
      closed = true;
      ch.close();
    }
  }
}

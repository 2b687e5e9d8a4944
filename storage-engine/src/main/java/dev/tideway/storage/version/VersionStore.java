package dev.tideway.storage.version;

import dev.tideway.common.fault.FailPoints;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.objectstore.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Persists versions in the object store: every delta as {@code version/delta/<id>}, and every
 * {@code checkpointEvery}-th version whole as {@code version/checkpoint/<id>}. A delta object that
 * exists is committed: writing it (atomically) is the commit point. {@link #recover()} loads the
 * newest checkpoint and replays the deltas after it. Old deltas and checkpoints are deleted once a
 * newer checkpoint covers them. Confined to the version manager's thread.
 */
public final class VersionStore {
  public static final String DELTA_PREFIX = "version/delta/";
  public static final String CHECKPOINT_PREFIX = "version/checkpoint/";
  public static final String FP_BEFORE_CHECKPOINT =
      FailPoints.declare("version.checkpoint.before-write");
  public static final String FP_AFTER_CHECKPOINT =
      FailPoints.declare("version.checkpoint.after-write");

  private final ObjectStore store;
  private final int checkpointEvery;

  public VersionStore(ObjectStore store, int checkpointEvery) {
    this.store = store;
    this.checkpointEvery = checkpointEvery;
  }

  public static String deltaPath(long id) {
    return String.format("%s%020d", DELTA_PREFIX, id);
  }

  public static String checkpointPath(long id) {
    return String.format("%s%020d", CHECKPOINT_PREFIX, id);
  }

  private static long idOf(String path, String prefix) {
    return Long.parseLong(path.substring(prefix.length()));
  }

  /** The last committed version (empty for a new store). */
  public Version recover() throws IOException {
    List<String> cps = store.list(CHECKPOINT_PREFIX);
    Version v = Version.empty();
    if (!cps.isEmpty()) {
      String last = cps.get(cps.size() - 1);
      v = VersionCodec.decodeVersion(store.read(last), "version checkpoint " + last);
    }
    List<String> deltas = new ArrayList<>(store.list(DELTA_PREFIX));
    for (String p : deltas) {
      long id = idOf(p, DELTA_PREFIX);
      if (id <= v.id()) {
        continue;
      }
      if (id != v.id() + 1) {
        throw new StorageException(
            StorageException.Reason.CORRUPTED,
            "version delta log has a gap: version " + v.id() + " then " + p);
      }
      v = VersionCodec.decodeDelta(store.read(p), "version delta " + p).apply(v);
    }
    return v;
  }

  /**
   * Writes the delta: when this returns, version {@code next} is committed. The write creates the
   * object only if it is absent ({@link ObjectStore#putIfAbsent}): one version owner at a time is
   * the rule (the meta leader, fenced through ZooKeeper), and this makes it hold in the store too.
   * A deposed owner that still appends finds the id taken by the newer owner's delta and fails; a
   * delta already there with the same bytes is this owner's own earlier attempt (a retried upload
   * whose answer was lost) and counts as written.
   */
  public void writeDelta(VersionDelta d) throws IOException {
    String path = deltaPath(d.id());
    byte[] bytes = VersionCodec.encode(d);
    if (!store.putIfAbsent(path, bytes) && !Arrays.equals(store.read(path), bytes)) {
      throw deposed(d.id(), "committed by another version owner (a newer meta leader)");
    }
    // a checkpoint at or past this id means a newer owner went on and pruned the deltas: this one
    // only re-created a pruned id (a checkpoint keeps its own id's delta, so it cannot be N itself)
    for (String cp : store.list(CHECKPOINT_PREFIX)) {
      if (idOf(cp, CHECKPOINT_PREFIX) >= d.id()) {
        store.delete(path);
        throw deposed(d.id(), "behind checkpoint " + idOf(cp, CHECKPOINT_PREFIX));
      }
    }
  }

  private StorageException deposed(long id, String why) {
    return new StorageException(
        StorageException.Reason.PROTOCOL,
        "version delta "
            + id
            + " is "
            + why
            + " in "
            + store.describe()
            + ": this process no longer owns the version log");
  }

  /** Reads back a delta after an ambiguous write; null when it is not there. */
  public VersionDelta readDelta(long id) throws IOException {
    String p = deltaPath(id);
    if (!store.exists(p)) {
      return null;
    }
    return VersionCodec.decodeDelta(store.read(p), "version delta " + p);
  }

  /**
   * Writes a checkpoint of {@code v} when due and prunes what it covers. Failures here never lose a
   * commit (the deltas stay), so they are reported to the caller only as a missed checkpoint.
   */
  public void maybeCheckpoint(Version v) throws IOException {
    if (v.id() % checkpointEvery != 0) {
      return;
    }
    FailPoints.hit(FP_BEFORE_CHECKPOINT);
    byte[] bytes = VersionCodec.encode(v);
    String path = checkpointPath(v.id());
    if (!store.putIfAbsent(path, bytes) && !Arrays.equals(store.read(path), bytes)) {
      // another owner's checkpoint of this id: keep it, and prune nothing on this one's word
      throw new IOException("version checkpoint " + v.id() + " was written by another owner");
    }
    FailPoints.hit(FP_AFTER_CHECKPOINT);
    for (String p : store.list(CHECKPOINT_PREFIX)) {
      if (idOf(p, CHECKPOINT_PREFIX) < v.id()) {
        store.delete(p);
      }
    }
    for (String p : store.list(DELTA_PREFIX)) {
      if (idOf(p, DELTA_PREFIX) < v.id()) { // the checkpoint's own id stays taken
        store.delete(p);
      }
    }
  }

  /**
   * The newest committed version, read forward from {@code from} (a follower's current version):
   * the deltas after it, or, when the owner's checkpointing already pruned the next delta, the
   * newest checkpoint and the deltas after that. Returns {@code from} itself when nothing is new. A
   * delta pruned between listing and reading is retried from the checkpoint that pruned it.
   */
  public Version catchUp(Version from) throws IOException {
    IOException last = null;
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        return catchUpOnce(from);
      } catch (java.io.FileNotFoundException e) {
        last = e; // pruned under us by a checkpoint: the next round loads it
      }
    }
    throw last;
  }

  private Version catchUpOnce(Version from) throws IOException {
    Version v = from;
    if (!store.exists(deltaPath(v.id() + 1))) {
      List<String> cps = store.list(CHECKPOINT_PREFIX);
      if (!cps.isEmpty() && idOf(cps.get(cps.size() - 1), CHECKPOINT_PREFIX) > v.id()) {
        String cp = cps.get(cps.size() - 1);
        v = VersionCodec.decodeVersion(store.read(cp), "version checkpoint " + cp);
      }
    }
    while (store.exists(deltaPath(v.id() + 1))) {
      String p = deltaPath(v.id() + 1);
      v = VersionCodec.decodeDelta(store.read(p), "version delta " + p).apply(v);
    }
    return v;
  }
}

package dev.tideway.storage.memtable;

import dev.tideway.common.check.Checks;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.api.TableStats;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.iterator.MergeIterator;
import dev.tideway.storage.sst.SstIds;
import dev.tideway.storage.sst.SstOutput;
import dev.tideway.storage.sst.SstReader;
import dev.tideway.storage.sst.SstReaders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The node's sealed but uncommitted writes: {@link ImmutableMemtable}s handed over by {@code
 * sealCurrentEpoch}, and staged SSTs (spilled under memory pressure, or synced and awaiting
 * commit). Reads of uncommitted state see both.
 *
 * <p>Sorting: a sealed memtable arrives unsorted (its writer must not pay for the sort at the
 * barrier); {@link #add} queues its sort on the upload pool right away.
 *
 * <p>Memory: when the sealed in-memory bytes exceed {@code spillBytes}, every sealed memtable is
 * spilled to SSTs (one per epoch) on the upload pool; a sealer blocks while they exceed twice that,
 * so a node never holds unbounded state in memory.
 *
 * <p>Concurrency: writers (seal, spill completion, sync, commit notification) take {@link #lock}
 * and replace the immutable {@link #items} list; readers read the volatile list without locking.
 * Read order: a reader snapshots this buffer <em>before</em> it pins the committed version, so data
 * removed from here after a commit is always in the version it then pins.
 */
public final class SharedBuffer {
  public static final String FP_SPILL = FailPoints.declare("storage.spill.before-upload");
  public static final String FP_SYNC_BEFORE_UPLOAD =
      FailPoints.declare("storage.sync.before-upload");
  public static final String FP_SYNC_AFTER_UPLOAD = FailPoints.declare("storage.sync.after-upload");

  /** One element of the buffer. */
  public sealed interface Item permits Imm, Staged {}

  /** A sealed memtable still in memory. */
  public record Imm(ImmutableMemtable mem) implements Item {}

  /**
   * An SST holding sealed writes: {@code stats} is its stats delta (rows + live deltas); {@code
   * synced} once a sync returned it.
   */
  public record Staged(SstInfo sst, Map<Integer, TableStats> stats, boolean synced)
      implements Item {}

  private final SstOutput output;
  private final SstReaders readers;
  private final SstIds ids;
  private final ExecutorService uploadPool;
  private final long spillBytes;
  private final ReentrantLock lock = new ReentrantLock();

  /**
   * Held for the whole of a spill or a sync, so that they never write the same sealed memtables
   * twice (which would duplicate rows and double-count stats). Lock order: uploadLock, then lock.
   */
  private final ReentrantLock uploadLock = new ReentrantLock();

  private final Condition memoryFreed = lock.newCondition();
  private volatile List<Item> items = List.of();
  private long immBytes;
  private long syncedEpoch = Long.MIN_VALUE;
  private CompletableFuture<Void> spill = CompletableFuture.completedFuture(null);

  /** True from the start of a spill until its last replace; guarded by {@link #lock}. */
  private boolean spilling;

  /**
   * Times {@link #clear} ran; guarded by {@link #lock}. A writer that began before the latest clear
   * (an actor of an aborted generation that a reset could not stop in time) is refused by {@link
   * #add}, so its aborted epoch never lands in the cleared buffer.
   */
  private long clears;

  public SharedBuffer(
      SstOutput output,
      SstReaders readers,
      ExecutorService uploadPool,
      SstIds ids,
      long spillBytes) {
    this.output = output;
    this.readers = readers;
    this.ids = ids;
    this.uploadPool = uploadPool;
    this.spillBytes = spillBytes;
  }

  public List<Item> items() {
    return items;
  }

  public long immBytes() {
    lock.lock();
    try {
      return immBytes;
    } finally {
      lock.unlock();
    }
  }

  /** The current clear count: a writer takes it when it starts and passes it to {@link #add}. */
  public long clears() {
    lock.lock();
    try {
      return clears;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Adds a sealed memtable of a writer that started at clear count {@code writerClears}; may start
   * a spill and may block while memory is over twice the limit. Refuses a writer from before the
   * latest {@link #clear}.
   */
  public void add(ImmutableMemtable mem, long writerClears) {
    lock.lock();
    try {
      if (writerClears != clears) {
        throw new StorageException(
            StorageException.Reason.PROTOCOL,
            "table "
                + mem.tableId()
                + ": epoch "
                + Epochs.format(mem.epoch())
                + " was written before a recovery cleared the uncommitted writes; refused");
      }
      if (mem.epoch() <= syncedEpoch) {
        throw new StorageException(
            StorageException.Reason.PROTOCOL,
            "table "
                + mem.tableId()
                + " sealed epoch "
                + Epochs.format(mem.epoch())
                + " after epoch "
                + Epochs.format(syncedEpoch)
                + " was synced");
      }
      items = append(items, new Imm(mem));
      immBytes += mem.bytes();
      if (immBytes > spillBytes && !spilling) {
        spilling = true;
        spill = CompletableFuture.runAsync(this::spillAll, uploadPool);
      }
      while (immBytes > 2 * spillBytes && spilling) {
        memoryFreed.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
    presort(mem);
  }

  /**
   * Sorts a sealed memtable on the upload pool, off the sealer's thread, so that the sync finds it
   * sorted; a sync or range read that comes first sorts it itself (once: see {@link
   * ImmutableMemtable}).
   */
  private void presort(ImmutableMemtable mem) {
    try {
      uploadPool.execute(mem::sort);
    } catch (RejectedExecutionException e) {
      // The engine is closing: whoever reads the memtable in order sorts it.
    }
  }

  private static List<Item> append(List<Item> list, Item item) {
    List<Item> out = new ArrayList<>(list.size() + 1);
    out.addAll(list);
    out.add(item);
    return List.copyOf(out);
  }

  /** Spills every in-memory sealed memtable, one SST per base epoch. Runs on the upload pool. */
  private void spillAll() {
    uploadLock.lock();
    try (SstIds.Guard g = ids.begin()) {
      TreeMap<Long, List<ImmutableMemtable>> byEpoch = new TreeMap<>();
      for (Item i : items) {
        if (i instanceof Imm imm) {
          byEpoch
              .computeIfAbsent(Epochs.base(imm.mem().epoch()), e -> new ArrayList<>())
              .add(imm.mem());
        }
      }
      for (List<ImmutableMemtable> group : byEpoch.values()) {
        FailPoints.hit(FP_SPILL);
        Staged staged = writeStaged(group, false);
        replace(group, staged);
      }
    } catch (IOException | RuntimeException e) {
      // Spill failed: the data stays in memory and the next sync writes it (or reports the error).
    } finally {
      uploadLock.unlock();
      lock.lock();
      try {
        spilling = false;
        memoryFreed.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  private Staged writeStaged(List<ImmutableMemtable> mems, boolean synced) throws IOException {
    List<EntryIterator> sources = new ArrayList<>();
    Map<Integer, TableStats> live = new HashMap<>();
    long rows = 0;
    for (ImmutableMemtable m : mems) {
      sources.add(m.iterator(KeyRange.ALL));
      TableStats.addInto(live, m.tableId(), new TableStats(0, 0, 0, m.liveDelta()));
      rows += m.size();
    }
    List<SstInfo> ssts = rows == 0 ? List.of() : output.write(new MergeIterator(sources), rows);
    Checks.checkState(ssts.size() <= 1, "sealed data split into %s SSTs", ssts.size());
    Map<Integer, TableStats> stats = new HashMap<>(live);
    if (!ssts.isEmpty()) {
      stats = TableStats.sum(live, ssts.get(0).tableStats());
    }
    return ssts.isEmpty()
        ? new Staged(null, stats, synced)
        : new Staged(ssts.get(0), stats, synced);
  }

  /** Swaps the given memtables for one staged SST. */
  private void replace(List<ImmutableMemtable> mems, Staged staged) {
    lock.lock();
    try {
      List<Item> out = new ArrayList<>();
      boolean placed = false;
      for (Item i : items) {
        if (i instanceof Imm imm && containsIdentity(mems, imm.mem())) {
          immBytes -= imm.mem().bytes();
          if (!placed) {
            out.add(staged);
            placed = true;
          }
        } else {
          out.add(i);
        }
      }
      items = List.copyOf(out);
      memoryFreed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private static boolean containsIdentity(List<ImmutableMemtable> mems, ImmutableMemtable m) {
    for (ImmutableMemtable x : mems) {
      if (x == m) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes every write sealed at or before {@code epoch} durable and returns it (with spilled SSTs
   * of those epochs) exactly once. Runs on the caller's thread; the engine calls it on the upload
   * pool.
   */
  public SyncResult sync(long epoch) throws IOException {
    uploadLock.lock();
    try {
      return syncLocked(epoch);
    } finally {
      uploadLock.unlock();
    }
  }

  private SyncResult syncLocked(long epoch) throws IOException {
    long upTo = Epochs.visibleUpTo(epoch);
    List<ImmutableMemtable> mems = new ArrayList<>();
    lock.lock();
    try {
      Checks.checkState(epoch > syncedEpoch, "sync of epoch %s after %s", epoch, syncedEpoch);
      syncedEpoch = epoch;
      for (Item i : items) {
        if (i instanceof Imm imm && imm.mem().epoch() <= upTo) {
          mems.add(imm.mem());
        }
      }
    } finally {
      lock.unlock();
    }
    try (SstIds.Guard g = ids.begin()) {
      FailPoints.hit(FP_SYNC_BEFORE_UPLOAD);
      Staged fresh = mems.isEmpty() ? null : writeStaged(mems, false);
      FailPoints.hit(FP_SYNC_AFTER_UPLOAD);
      if (fresh != null) {
        replace(mems, fresh);
      }
      return collect(upTo, epoch);
    }
  }

  private SyncResult collect(long upTo, long epoch) {
    lock.lock();
    try {
      List<SstInfo> ssts = new ArrayList<>();
      Map<Integer, TableStats> stats = new HashMap<>();
      List<Item> out = new ArrayList<>();
      for (Item i : items) {
        if (i instanceof Staged s
            && !s.synced()
            && (s.sst() == null || s.sst().maxEpoch() <= upTo)) {
          if (s.sst() != null) {
            ssts.add(s.sst());
            out.add(new Staged(s.sst(), s.stats(), true));
          }
          stats = TableStats.sum(stats, s.stats());
        } else {
          out.add(i);
        }
      }
      items = List.copyOf(out);
      return new SyncResult(epoch, ssts, stats);
    } finally {
      lock.unlock();
    }
  }

  /** Drops what a committed version now holds. Called after each published version. */
  public void onCommitted(long committedEpoch) {
    long upTo = Epochs.visibleUpTo(committedEpoch);
    lock.lock();
    try {
      List<Item> out = new ArrayList<>();
      for (Item i : items) {
        if (!(i instanceof Staged s && s.synced() && s.sst().maxEpoch() <= upTo)) {
          out.add(i);
        }
      }
      items = List.copyOf(out);
    } finally {
      lock.unlock();
    }
  }

  /** Drops every uncommitted write (recovery); returns the staged SST ids, now garbage. */
  public List<Long> clear() {
    spill.join();
    lock.lock();
    try {
      List<Long> ids = new ArrayList<>();
      for (Item i : items) {
        if (i instanceof Staged s && s.sst() != null) {
          ids.add(s.sst().id());
        }
      }
      items = List.of();
      immBytes = 0;
      syncedEpoch = Long.MIN_VALUE;
      clears++;
      memoryFreed.signalAll();
      return ids;
    } finally {
      lock.unlock();
    }
  }

  /** The SST ids this buffer references (vacuum must keep them). */
  public List<Long> stagedIds() {
    List<Long> ids = new ArrayList<>();
    for (Item i : items) {
      if (i instanceof Staged s && s.sst() != null) {
        ids.add(s.sst().id());
      }
    }
    return ids;
  }

  /**
   * True for a staged SST the pinned version already covers (committed at or before {@code
   * committedEpoch}): read it from the version, never from here, since after a compaction it may be
   * gone.
   */
  private static boolean coveredByVersion(Item i, long committedEpoch) {
    return i instanceof Staged s
        && s.sst() != null
        && s.sst().maxEpoch() <= Epochs.visibleUpTo(committedEpoch);
  }

  /**
   * Sources over {@code range} holding entries of epochs at most {@code maxEpoch}, leaving out what
   * the pinned version (committed up to {@code committedEpoch}) already holds.
   */
  public static List<EntryIterator> sources(
      List<Item> snapshot, SstReaders readers, KeyRange range, long maxEpoch, long committedEpoch) {
    List<EntryIterator> out = new ArrayList<>();
    for (Item i : snapshot) {
      if (coveredByVersion(i, committedEpoch)) {
        continue;
      }
      if (i instanceof Imm imm) {
        if (imm.mem().epoch() <= maxEpoch) {
          out.add(imm.mem().iterator(range));
        }
      } else if (i instanceof Staged s
          && s.sst() != null
          && s.sst().overlaps(range)
          && s.sst().minEpoch() <= maxEpoch) {
        out.add(readers.get(s.sst()).iterator(range));
      }
    }
    return out;
  }

  /** The newest version of {@code key} with epoch at most {@code maxEpoch} in the snapshot. */
  public static Entry get(
      List<Item> snapshot, SstReaders readers, byte[] key, long maxEpoch, long committedEpoch) {
    Entry best = null;
    int table = key.length >= Keys.PREFIX_LEN ? Keys.tableId(key) : -1; // memtables hold table keys
    long hash = 0;
    boolean hashed = false; // the key's bloom hash, computed once for all staged SSTs
    for (Item i : snapshot) {
      if (coveredByVersion(i, committedEpoch)) {
        continue;
      }
      Entry e = null;
      if (i instanceof Imm imm) {
        if (imm.mem().tableId() == table // a memtable holds one table: others cannot hold the key
            && imm.mem().epoch() <= maxEpoch
            && (best == null || imm.mem().epoch() > best.epoch())) {
          e = imm.mem().get(key);
        }
      } else if (i instanceof Staged s
          && s.sst() != null
          && (best == null || s.sst().maxEpoch() > best.epoch())) {
        if (!hashed) {
          hash = SstReader.bloomHash(key);
          hashed = true;
        }
        e = readers.get(s.sst()).get(key, hash, maxEpoch);
      }
      if (e != null && e.epoch() <= maxEpoch && (best == null || e.epoch() > best.epoch())) {
        best = e;
      }
    }
    return best;
  }

  SstReaders readers() {
    return readers;
  }
}

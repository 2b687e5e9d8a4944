package dev.tideway.storage.engine;

import dev.tideway.common.exec.Threads;
import dev.tideway.common.fault.InjectedFault;
import dev.tideway.storage.api.CompactionJob;
import dev.tideway.storage.api.CompactionOutcome;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.LogEntry;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.Storage;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.StorageRole;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.api.TableStats;
import dev.tideway.storage.compaction.CompactionPicker;
import dev.tideway.storage.compaction.CompactionRewriter;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.iterator.MergeIterator;
import dev.tideway.storage.iterator.MvccIterator;
import dev.tideway.storage.memtable.SharedBuffer;
import dev.tideway.storage.metrics.StorageMetrics;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import dev.tideway.storage.objectstore.ObjectStore;
import dev.tideway.storage.sst.BlockCache;
import dev.tideway.storage.sst.SstIds;
import dev.tideway.storage.sst.SstOutput;
import dev.tideway.storage.sst.SstReaders;
import dev.tideway.storage.sst.SstWriterOptions;
import dev.tideway.storage.version.RemotePins;
import dev.tideway.storage.version.Version;
import dev.tideway.storage.version.VersionManager;
import dev.tideway.storage.version.VersionPins;
import dev.tideway.storage.version.VersionStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The assembled state store of one process: shared buffer, SST readers and block cache, the version
 * manager, compaction and vacuum.
 *
 * <p>Overview (threads): writers own their {@link LocalStore}s; {@code sync} runs on the {@code
 * storage-upload} pool; every version change (commit, compaction result, change-log retention) and
 * vacuum run in order on the single {@code storage-version} thread, which owns the {@link
 * VersionManager}; compaction rewrites run on the {@code storage-compactor} pool, one task at a
 * time ({@link #compactionLock}), and never block writers or commits. Reads are lock-free: they
 * snapshot the shared buffer, then pin the current version (this order matters, see {@link
 * SharedBuffer}).
 */
public final class StorageEngine implements Storage {
  private static final Logger LOG = LoggerFactory.getLogger(StorageEngine.class);

  private final ObjectStore store;
  private final StorageOptions options;
  private final BlockCache cache;
  private final SstReaders readers;
  private final SegmentBounds bounds;
  private final SstIds ids;
  private final SharedBuffer buffer;
  private final VersionManager versions;
  private final VersionPins pins = new VersionPins();
  private final StorageMetrics metrics;
  private final CompactionPicker picker;
  private final CompactionRewriter rewriter;
  private final ExecutorService versionThread = Threads.singleThread("storage-version");
  private final ExecutorService uploadPool;

  /**
   * Runs syncs one at a time in call order: a node issues sync(E1) then sync(E2) back to back, and
   * the shared buffer requires rising epochs, which a multi-threaded pool would not keep.
   */
  private final ExecutorService syncThread = Threads.singleThread("storage-sync");

  private final SyncBacklog syncBacklog;
  private final ExecutorService compactPool;
  private final ReentrantLock compactionLock = new ReentrantLock();
  private final StorageRole role;

  /** A follower's publication of its pins for the owner (null otherwise); on {@link #pinThread}. */
  private final RemotePins.Publisher pinPublisher;

  private final java.util.concurrent.ScheduledExecutorService pinThread;

  /** The owner's view of the followers' pins (null otherwise); on the version thread. */
  private final RemotePins.Observer remotePins;

  /**
   * Owner, version thread: per unreferenced SST, a version id at or after the one it left (the
   * version current when vacuum first listed it): a follower pinned below it may still read it.
   */
  private final Map<Long, Long> leftVersionAt = new java.util.HashMap<>();

  private volatile boolean closed;

  private StorageEngine(ObjectStore store, StorageOptions options, StorageRole role)
      throws IOException {
    this.store = store;
    this.options = options;
    this.role = role;
    if (store instanceof LocalFsObjectStore fs) {
      // only our own crashed uploads: other processes sharing the store may be uploading now
      fs.deleteTemporaries(
          target -> {
            long id = SstInfo.idOfPath(target);
            return id >= 0
                ? role.ownsSstId(id)
                : role.kind() != StorageRole.Kind.FOLLOWER && !target.startsWith("pins/");
          });
    }
    this.versions = VersionManager.open(new VersionStore(store, options.checkpointEvery()));
    long maxListed = role.firstSstId();
    for (String p : store.list("sst/")) {
      long id = SstInfo.idOfPath(p);
      if (role.ownsSstId(id)) {
        maxListed = Math.max(maxListed, id);
      }
    }
    long maxInVersion = versions.current().maxSstId();
    if (role.kind() == StorageRole.Kind.STANDALONE) {
      maxListed = Math.max(maxListed, maxInVersion);
    } else {
      for (long id : versions.current().sstIds()) {
        if (role.ownsSstId(id)) {
          maxListed = Math.max(maxListed, id);
        }
      }
    }
    if (role.kind() == StorageRole.Kind.FOLLOWER) {
      maxListed = Math.max(maxListed, role.firstSstId() + incarnationFloor(options) - 1);
    }
    this.ids = new SstIds(maxListed + 1);
    this.cache = new BlockCache(options.blockCacheBytes());
    this.readers = new SstReaders(store, cache, options.verifyFileChecksum());
    this.bounds = new SegmentBounds(readers);
    this.metrics = new StorageMetrics(options.registry(), cache);
    this.syncBacklog =
        new SyncBacklog(options.maxPendingSyncs(), options.clock(), metrics.writeStallSeconds);
    this.uploadPool = Threads.fixedPool("storage-upload", options.uploadThreads());
    this.compactPool = Threads.fixedPool("storage-compactor", options.compactionThreads());
    SstOutput flush = new SstOutput(store, SstWriterOptions.DEFAULT, ids::next, Long.MAX_VALUE);
    this.buffer = new SharedBuffer(flush, readers, uploadPool, ids, options.sharedBufferBytes());
    this.picker = new CompactionPicker(options.l0Trigger(), options.levelBaseBytes());
    this.rewriter =
        new CompactionRewriter(
            readers,
            new SstOutput(store, SstWriterOptions.DEFAULT, ids::next, options.targetFileBytes()));
    versions.addListener(this::onVersion);
    metrics.onVersion(versions.current());
    RemotePins.Objects objects = pinObjects(store);
    if (role.kind() == StorageRole.Kind.FOLLOWER) {
      this.pinPublisher = new RemotePins.Publisher(objects, role.sstIdSpace());
      this.pinThread = Threads.scheduler("storage-pins");
      pinThread.scheduleWithFixedDelay(
          this::publishPinsQuietly,
          RemotePins.PUBLISH_MS,
          RemotePins.PUBLISH_MS,
          TimeUnit.MILLISECONDS);
    } else {
      this.pinPublisher = null;
      this.pinThread = null;
    }
    this.remotePins =
        role.kind() == StorageRole.Kind.VERSION_OWNER
            ? new RemotePins.Observer(objects, options.clock())
            : null;
  }

  private static RemotePins.Objects pinObjects(ObjectStore store) {
    return new RemotePins.Objects() {
      @Override
      public void put(String path, byte[] bytes) throws IOException {
        store.put(path, bytes);
      }

      @Override
      public byte[] read(String path) throws IOException {
        return store.read(path);
      }

      @Override
      public List<String> list(String prefix) throws IOException {
        return store.list(prefix);
      }

      @Override
      public void delete(String path) throws IOException {
        store.delete(path);
      }
    };
  }

  /**
   * A follower publishes its oldest pinned version and epoch for the owner now (it also does every
   * {@link RemotePins#PUBLISH_MS}); tests call it to skip the wait. No-op for other roles.
   */
  public void publishPins() throws IOException {
    if (pinPublisher != null) {
      Future<?> f =
          pinThread.submit(
              () -> {
                pinPublisher.publish(RemotePins.oldest(pins));
                return null;
              });
      try {
        f.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (ExecutionException e) {
        throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
      }
    }
  }

  private void publishPinsQuietly() {
    try {
      pinPublisher.publish(RemotePins.oldest(pins));
    } catch (IOException | RuntimeException e) {
      // retried next round; the owner's lease covers a few missed rounds
    }
  }

  /** Owner, version thread: the followers' oldest live pin. */
  private Optional<RemotePins.Held> remoteOldest() {
    if (remotePins == null) {
      return Optional.empty();
    }
    try {
      return remotePins.oldest();
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot read the followers' pins", e);
    }
  }

  /** Owner, version thread: whether a follower's pin may still read unreferenced SST {@code id}. */
  private boolean heldRemotely(long id, Optional<RemotePins.Held> remote) {
    long left = leftVersionAt.computeIfAbsent(id, k -> versions.current().id());
    return remote.isPresent() && remote.get().versionId() < left;
  }

  /**
   * Opens (or creates) the store in {@code store}: recovers the last committed version and vacuums
   * orphans.
   */
  public static StorageEngine open(ObjectStore store, StorageOptions options) {
    return open(store, options, StorageRole.standalone());
  }

  /** 2026-01-01T00:00:00Z: the origin of {@link #incarnationFloor}. */
  private static final long ID_FLOOR_ORIGIN_MS = 1_767_225_600_000L;

  /**
   * The lowest SST id (within its space) a follower opening now may allocate: 1024 per second of
   * wall time since 2026. A restarted follower must never reuse an id its earlier incarnation
   * wrote, and listing cannot tell: vacuum may have deleted such an SST (compacted away) while
   * another node's reader still caches its metadata by id, and a new file under the old id then
   * reads as corrupted. A process writes far fewer than 1024 SSTs a second, so each incarnation
   * starts above every id of the ones before it; 2^40 ids last 34 years.
   */
  static long incarnationFloor(StorageOptions options) {
    long seconds = Math.max(0, (options.clock().currentTimeMillis() - ID_FLOOR_ORIGIN_MS) / 1000);
    return Math.min(seconds << 10, (1L << StorageRole.SPACE_SHIFT) - (1L << 30));
  }

  /**
   * Opens the store for a process with {@code role}. Only a standalone store vacuums at open: in a
   * shared store, another process's synced but uncommitted SSTs look like orphans.
   */
  public static StorageEngine open(ObjectStore store, StorageOptions options, StorageRole role) {
    try {
      StorageEngine e = new StorageEngine(store, options, role);
      if (role.kind() == StorageRole.Kind.STANDALONE) {
        e.vacuum();
      }
      return e;
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE,
          "cannot open state store in " + store.describe(),
          e);
    }
  }

  SharedBuffer sharedBuffer() {
    return buffer;
  }

  /** The current committed version (for tests and tools). */
  public Version version() {
    return versions.current();
  }

  public SstReaders readers() {
    return readers;
  }

  public ObjectStore objectStore() {
    return store;
  }

  private void checkOpen() {
    if (closed) {
      throw new StorageException(
          StorageException.Reason.CLOSED, "state store in " + store.describe() + " is closed");
    }
  }

  private void onVersion(Version v) {
    buffer.onCommitted(v.maxCommittedEpoch());
    metrics.onVersion(v);
  }

  // ---- StateStore: writes and sync ----

  @Override
  public LocalStateStore newLocal(int tableId) {
    checkOpen();
    return new LocalStore(this, tableId, options.memtableBytes());
  }

  @Override
  public CompletableFuture<SyncResult> sync(long epoch) {
    checkOpen();
    syncBacklog.requested();
    try {
      return CompletableFuture.supplyAsync(() -> syncNow(epoch), syncThread);
    } catch (RejectedExecutionException e) {
      syncBacklog.finished();
      throw new StorageException(
          StorageException.Reason.CLOSED, "state store in " + store.describe() + " is closed");
    }
  }

  /** One sync, on the sync thread; always ends the backlog entry {@link #sync} made. */
  private SyncResult syncNow(long epoch) {
    long t0 = options.clock().nanoTime();
    try {
      SyncResult r = buffer.sync(epoch);
      metrics.syncRows.inc(r.rowCount());
      metrics.syncBytes.inc(r.ssts().stream().mapToLong(SstInfo::fileSize).sum());
      metrics.syncDuration.observe((options.clock().nanoTime() - t0) / 1e9);
      return r;
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE,
          "sync of epoch " + Epochs.format(epoch) + " failed",
          e);
    } finally {
      syncBacklog.finished();
    }
  }

  /**
   * Called by a writer that has just sealed an epoch: waits while the sync queue is over its limit
   * (see {@link SyncBacklog}).
   */
  void awaitSyncRoom(BooleanSupplier stale) {
    syncBacklog.awaitRoom(stale);
  }

  @Override
  public void clearUncommitted() {
    buffer.clear(); // bumps the clear count first: a woken writer then sees itself stale
    syncBacklog.wakeAll();
  }

  // ---- StateStore: reads ----

  @Override
  public long committedEpoch() {
    return versions.current().maxCommittedEpoch();
  }

  @Override
  public long safeEpoch() {
    return versions.current().safeEpoch();
  }

  private VersionPins.Pin pinCommitted(long epoch) {
    checkOpen();
    VersionPins.Pin pin = pins.pin(versions.current(), epoch);
    Version v = pin.version();
    if (epoch < v.safeEpoch() || epoch > v.maxCommittedEpoch()) {
      pin.close();
      throw new StorageException(
          StorageException.Reason.EPOCH_OUT_OF_RANGE,
          "read at epoch "
              + Epochs.format(epoch)
              + " outside [safe "
              + Epochs.format(v.safeEpoch())
              + ", committed "
              + Epochs.format(v.maxCommittedEpoch())
              + "]");
    }
    return pin;
  }

  @Override
  public byte[] get(byte[] key, long epoch) {
    try (VersionPins.Pin pin = pinCommitted(epoch)) {
      Entry e = VersionReads.get(pin.version(), bounds, key, Epochs.visibleUpTo(epoch), null);
      return e == null || e.delete() ? null : e.value();
    }
  }

  @Override
  public StateIterator iter(KeyRange range, long epoch) {
    VersionPins.Pin pin = pinCommitted(epoch);
    try {
      List<EntryIterator> sources =
          VersionReads.sources(pin.version(), readers, range, Epochs.visibleUpTo(epoch));
      return new MvccIterator(new MergeIterator(sources), Epochs.visibleUpTo(epoch), pin::close);
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
  }

  /** A writer's read: shared buffer first, then the pinned committed version. */
  Entry getUncommitted(byte[] key, long maxEpoch) {
    List<SharedBuffer.Item> snapshot = buffer.items();
    try (VersionPins.Pin pin = pins.pin(versions.current(), maxEpoch)) {
      Entry best =
          SharedBuffer.get(snapshot, readers, key, maxEpoch, pin.version().maxCommittedEpoch());
      return VersionReads.get(pin.version(), bounds, key, maxEpoch, best);
    }
  }

  StateIterator iterUncommitted(KeyRange range, long maxEpoch, EntryIterator memtable) {
    List<SharedBuffer.Item> snapshot = buffer.items();
    VersionPins.Pin pin = pins.pin(versions.current(), maxEpoch);
    try {
      List<EntryIterator> sources = new ArrayList<>();
      sources.add(memtable);
      sources.addAll(
          SharedBuffer.sources(
              snapshot, readers, range, maxEpoch, pin.version().maxCommittedEpoch()));
      sources.addAll(VersionReads.sources(pin.version(), readers, range, maxEpoch));
      return new MvccIterator(new MergeIterator(sources), maxEpoch, pin::close);
    } catch (RuntimeException e) {
      pin.close();
      throw e;
    }
  }

  @Override
  public List<LogEntry> iterLog(int tableId, BitSet vnodes, long fromEpoch, long toEpoch) {
    try (VersionPins.Pin pin = pins.pin(versions.current(), fromEpoch)) {
      return ChangeLogReader.read(pin.version(), readers, tableId, vnodes, fromEpoch, toEpoch);
    }
  }

  @Override
  public Map<Integer, TableStats> tableStats() {
    return versions.current().tableStats();
  }

  // ---- VersionService ----

  public StorageRole role() {
    return role;
  }

  private void checkChangesVersions(String what) {
    if (!role.changesVersions()) {
      throw new StorageException(
          StorageException.Reason.PROTOCOL,
          what
              + " refused: this process follows the versions of "
              + store.describe()
              + " (role "
              + role.kind()
              + "); only the version owner changes them");
    }
  }

  private <T> T onVersionThread(Supplier<T> action) {
    checkOpen();
    Future<T> f = versionThread.submit(action::get);
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException(
          StorageException.Reason.CLOSED, "interrupted waiting for the version thread", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "version change failed", e.getCause());
    }
  }

  @Override
  public void commitEpoch(long epoch, List<SstInfo> ssts, Map<Integer, TableStats> statsDelta) {
    checkChangesVersions("commit of epoch " + Epochs.format(epoch));
    onVersionThread(() -> versions.commitEpoch(epoch, ssts, statsDelta));
    if (options.autoCompact() && role.kind() == StorageRole.Kind.STANDALONE && !closed) {
      compactPool.execute(this::autoCompact);
    }
  }

  @Override
  public void registerChangeLog(int tableId, long fromEpoch) {
    checkChangesVersions("change log registration of table " + tableId);
    onVersionThread(
        () -> {
          if (fromEpoch < versions.current().safeEpoch()) {
            throw new StorageException(
                StorageException.Reason.EPOCH_OUT_OF_RANGE,
                "change log of table "
                    + tableId
                    + " from "
                    + Epochs.format(fromEpoch)
                    + " below the safe epoch");
          }
          return versions.setChangeLog(tableId, fromEpoch);
        });
  }

  @Override
  public void dropTables(java.util.Collection<Integer> tableIds) {
    checkChangesVersions("drop of tables " + tableIds);
    onVersionThread(() -> versions.dropTables(Set.copyOf(tableIds)));
    if (options.autoCompact() && role.kind() == StorageRole.Kind.STANDALONE && !closed) {
      compactPool.execute(this::autoCompact);
    }
  }

  @Override
  public Set<Integer> droppedTables() {
    return versions.current().droppedTables();
  }

  @Override
  public void releaseChangeLog(int tableId, long epoch) {
    checkChangesVersions("change log release of table " + tableId);
    onVersionThread(
        () ->
            versions.setChangeLog(
                tableId, epoch < 0 ? dev.tideway.storage.version.VersionDelta.RELEASED : epoch));
  }

  private long safeEpochForCompaction() {
    long committed = versions.current().maxCommittedEpoch();
    return Math.min(committed, pins.minPinnedEpoch(committed));
  }

  private void autoCompact() {
    if (!compactionLock.tryLock()) {
      return;
    }
    try {
      while (!closed) {
        Optional<CompactionJob> t = picker.pick(versions.current(), safeEpochForCompaction());
        if (t.isEmpty()) {
          return;
        }
        runCompaction(t.get());
      }
    } catch (RuntimeException e) {
      // A failed compaction changes nothing; its files are vacuumed and it is retried after the
      // next commit.
    } finally {
      compactionLock.unlock();
    }
  }

  @Override
  public void compactNow(boolean full) {
    checkOpen();
    checkChangesVersions("compaction");
    compactionLock.lock();
    try {
      if (full) {
        CompactionPicker.full(versions.current(), safeEpochForCompaction())
            .ifPresent(this::runCompaction);
        return;
      }
      Optional<CompactionJob> t;
      while ((t = picker.pick(versions.current(), safeEpochForCompaction())).isPresent()) {
        runCompaction(t.get());
      }
    } finally {
      compactionLock.unlock();
    }
  }

  /**
   * A standalone store's own compaction: the same rewrite a node runs for the owner ({@link
   * #rewrite}), applied here through the same {@link #applyCompaction} path, then vacuum. The guard
   * spans rewrite and apply so vacuum cannot take the outputs in between.
   */
  private void runCompaction(CompactionJob job) {
    try (SstIds.Guard g = ids.begin()) {
      CompactionOutcome o = rewrite(job);
      if (!applyOnVersionThread(o)) {
        throw new StorageException(
            StorageException.Reason.PROTOCOL, "compaction inputs left the version meanwhile");
      }
    }
    vacuum();
  }

  @Override
  public int vacuum() {
    checkChangesVersions("vacuum");
    return onVersionThread(this::vacuumOnVersionThread);
  }

  private int vacuumOnVersionThread() {
    long below = ids.safeToDeleteBelow();
    Set<Long> keep = new HashSet<>(buffer.stagedIds());
    keep.addAll(pins.pinnedSstIds());
    keep.addAll(versions.current().sstIds());
    int deleted = 0;
    try {
      for (String p : store.list("sst/")) {
        long id = SstInfo.idOfPath(p);
        if (id >= 0 && id < below && !keep.contains(id)) {
          readers.evict(id);
          store.delete(p);
          deleted++;
        }
      }
    } catch (IOException | InjectedFault e) {
      // Vacuum is best effort: what is left is found again next time.
    }
    return deleted;
  }

  // ---- multi-process: following, remote compaction, vacuum with a grace period ----

  @Override
  public long refresh(long minCommittedEpoch) {
    Version v = onVersionThread(versions::refresh);
    if (v.maxCommittedEpoch() < minCommittedEpoch) {
      throw new StorageException(
          StorageException.Reason.EPOCH_OUT_OF_RANGE,
          "after refresh the store in "
              + store.describe()
              + " has committed "
              + Epochs.format(v.maxCommittedEpoch())
              + ", below the announced "
              + Epochs.format(minCommittedEpoch));
    }
    return v.maxCommittedEpoch();
  }

  /**
   * The one compaction rewrite: a node runs it for the owner ({@link #compact}, which a compute
   * node's {@code Compact} command calls), a standalone store for itself ({@link
   * #runCompaction(CompactionJob)}).
   */
  @Override
  public CompletableFuture<CompactionOutcome> compact(CompactionJob job) {
    checkOpen();
    return CompletableFuture.supplyAsync(() -> rewrite(job), compactPool);
  }

  /**
   * Rewrites the job's inputs into new SSTs of this process's id space; changes no version. The
   * guard keeps vacuum off the new files while they are written.
   */
  private CompactionOutcome rewrite(CompactionJob job) {
    try (SstIds.Guard g = ids.begin()) {
      CompactionOutcome o = rewriter.run(job);
      metrics.onCompaction(o);
      return o;
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE,
          "compaction of " + job.inputCount() + " SSTs into L" + job.targetLevel() + " failed",
          e);
    }
  }

  @Override
  public long versionId() {
    return versions.current().id();
  }

  @Override
  public Optional<CompactionJob> pickCompaction(long safeEpoch, boolean full) {
    checkChangesVersions("compaction");
    Version v = versions.current();
    long remote =
        remotePins == null
            ? Long.MAX_VALUE
            : onVersionThread(this::remoteOldest)
                .map(RemotePins.Held::epoch)
                .orElse(Long.MAX_VALUE);
    long safe = Math.min(Math.min(safeEpoch, safeEpochForCompaction()), remote);
    return full ? CompactionPicker.full(v, safe) : picker.pick(v, safe);
  }

  @Override
  public boolean applyCompaction(CompactionOutcome outcome) {
    checkChangesVersions("a compaction outcome");
    return applyOnVersionThread(outcome);
  }

  private boolean applyOnVersionThread(CompactionOutcome outcome) {
    return onVersionThread(
        () -> {
          Version v = versions.current();
          Set<Long> live = v.sstIds();
          for (CompactionOutcome.LevelEdit e : outcome.changes()) {
            if (!live.containsAll(e.removed())) {
              return false;
            }
          }
          List<dev.tideway.storage.version.VersionDelta.LevelChange> changes = new ArrayList<>();
          for (CompactionOutcome.LevelEdit e : outcome.changes()) {
            changes.add(
                new dev.tideway.storage.version.VersionDelta.LevelChange(
                    e.level(), e.removed(), e.added()));
          }
          versions.applyCompaction(changes, outcome.statsDelta(), outcome.safeEpoch());
          return true;
        });
  }

  @Override
  public Set<Long> unreferencedSsts() {
    return onVersionThread(
        () -> {
          long below = ids.safeToDeleteBelow();
          Set<Long> keep = new HashSet<>(buffer.stagedIds());
          keep.addAll(pins.pinnedSstIds());
          keep.addAll(versions.current().sstIds());
          Set<Long> out = new java.util.TreeSet<>();
          Set<Long> listed = new HashSet<>();
          Optional<RemotePins.Held> remote = remoteOldest();
          try {
            for (String p : store.list("sst/")) {
              long id = SstInfo.idOfPath(p);
              boolean ownRunningWrite = role.ownsSstId(id) && id >= below;
              if (id >= 0 && !keep.contains(id) && !ownRunningWrite) {
                listed.add(id);
                if (!heldRemotely(id, remote)) {
                  out.add(id);
                }
              }
            }
          } catch (IOException e) {
            throw new StorageException(
                StorageException.Reason.OBJECT_STORE, "cannot list SSTs for vacuum", e);
          }
          leftVersionAt.keySet().retainAll(listed);
          return out;
        });
  }

  @Override
  public int deleteSsts(java.util.Collection<Long> sstIds) {
    checkChangesVersions("vacuum");
    return onVersionThread(
        () -> {
          Set<Long> keep = new HashSet<>(buffer.stagedIds());
          keep.addAll(pins.pinnedSstIds());
          keep.addAll(versions.current().sstIds());
          Optional<RemotePins.Held> remote = remoteOldest();
          int deleted = 0;
          for (long id : sstIds) {
            if (keep.contains(id) || heldRemotely(id, remote)) {
              continue;
            }
            try {
              readers.evict(id);
              store.delete(SstInfo.objectPath(id));
              deleted++;
            } catch (IOException | InjectedFault e) {
              // best effort: listed again next round
            }
          }
          return deleted;
        });
  }

  @Override
  public String describeVersion() {
    return versions.current().toString();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    syncBacklog.close(); // a writer stalled at close must not wait for the pools below
    if (pinThread != null) {
      pinThread.shutdown();
      try {
        pinThread.awaitTermination(5, TimeUnit.SECONDS);
        pinPublisher.publish(Optional.empty());
      } catch (IOException | RuntimeException e) {
        // the owner's lease expires it
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    compactionLock.lock();
    compactionLock.unlock();
    List<ExecutorService> pools = List.of(versionThread, syncThread, uploadPool, compactPool);
    pools.forEach(ExecutorService::shutdown);
    try {
      for (ExecutorService pool : pools) {
        pool.awaitTermination(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    readers.close();
    logWriteAmplification();
    metrics.close();
    store.close(); // the engine owns its object store (an S3 store's client and connections)
  }

  /** This engine's metrics (tests read the sync and compaction byte counters). */
  StorageMetrics metrics() {
    return metrics;
  }

  /** Compaction bytes written per byte synced, the cost a compaction policy is judged by. */
  private void logWriteAmplification() {
    double synced = metrics.syncBytes.get();
    double compacted = metrics.compactionWriteBytes.get();
    if (synced > 0) {
      LOG.info(
          "storage in {} closed: synced {} bytes; compaction read {} and wrote {} bytes"
              + " (write amplification {}); SSTs per level {}",
          store.describe(),
          (long) synced,
          (long) metrics.compactionReadBytes.get(),
          (long) compacted,
          String.format("%.2f", compacted / synced),
          versions.current().sstCountPerLevel());
    }
  }
}

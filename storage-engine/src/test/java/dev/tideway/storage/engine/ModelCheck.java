package dev.tideway.storage.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.random.RandomSource;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.api.TableStats;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.objectstore.ObjectStore;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A model-based run: random writes, seals, syncs, commits, compactions, pinned reads, reads at
 * random committed epochs and reopens, checking after every step that the store equals an in-memory
 * sorted-map model and that the table stats match a scan of every file. Deterministic for a seed
 * (compaction runs inline, never in the background).
 */
final class ModelCheck {
  static final int[] TABLES = {1, 2};

  private final RandomSource rnd;
  private final ObjectStore objects;
  private final StorageOptions options;
  private final int keySpace;
  private StorageEngine engine;
  private final Map<Integer, LocalStateStore> locals = new HashMap<>();

  /** The writers' view: every write so far (committed or not). */
  private TreeMap<byte[], byte[]> latest = new TreeMap<>(Keys.ORDER);

  /** State at each sealed epoch. */
  private final TreeMap<Long, TreeMap<byte[], byte[]>> sealed = new TreeMap<>();

  private long epochCounter = 1;
  private long committed;
  private final List<Pinned> pinned = new ArrayList<>();
  private final StringBuilder trace = new StringBuilder();

  /** An iterator opened at an old epoch, read only after later compactions. */
  private record Pinned(StateIterator it, long epoch, int table) {}

  /** How often a compaction step compacts everything into the bottom level. */
  private final double fullCompactionChance;

  ModelCheck(RandomSource rnd, ObjectStore objects, StorageOptions options, int keySpace) {
    this(rnd, objects, options, keySpace, 0.3);
  }

  ModelCheck(
      RandomSource rnd,
      ObjectStore objects,
      StorageOptions options,
      int keySpace,
      double fullCompactionChance) {
    this.rnd = rnd;
    this.objects = objects;
    this.options = options;
    this.keySpace = keySpace;
    this.fullCompactionChance = fullCompactionChance;
  }

  String trace() {
    return trace.length() > 4000 ? trace.substring(trace.length() - 4000) : trace.toString();
  }

  void run(int steps) throws Exception {
    open();
    for (int step = 0; step < steps; step++) {
      int dice = rnd.nextInt(100);
      if (dice < 45) {
        writes(1 + rnd.nextInt(30));
      } else if (dice < 65) {
        seal(rnd.chance(0.6));
      } else if (dice < 78) {
        readCommitted();
      } else if (dice < 86) {
        readUncommitted();
      } else if (dice < 92) {
        log("compact");
        engine.compactNow(rnd.chance(fullCompactionChance));
        checkStats();
      } else if (dice < 95) {
        pinOrCheckPinned();
      } else if (dice < 97) {
        log("vacuum");
        engine.vacuum();
      } else {
        reopen();
      }
    }
    seal(true);
    closePinned();
    engine.compactNow(true);
    checkStats();
    checkFullyCompactedStatsAreExact();
    readCommitted();
    engine.close();
  }

  private void log(String s) {
    trace.append(s).append('\n');
  }

  private void open() {
    engine = StorageEngine.open(objects, options);
    committed = engine.committedEpoch();
    locals.clear();
    for (int t : TABLES) {
      LocalStateStore l = engine.newLocal(t);
      l.init(Epochs.of(epochCounter));
      locals.put(t, l);
    }
  }

  private byte[] randomKey() {
    int t = TABLES[rnd.nextInt(TABLES.length)];
    long pk = rnd.nextInt(keySpace);
    return Keys.key(t, (int) (pk % 4), ByteBuffer.allocate(8).putLong(pk).array());
  }

  private void writes(int n) {
    log("writes " + n);
    for (int i = 0; i < n; i++) {
      byte[] k = randomKey();
      LocalStateStore l = locals.get(Keys.tableId(k));
      byte[] old = latest.get(k);
      byte[] v = new byte[rnd.nextInt(40)];
      rnd.nextBytes(v);
      if (old == null) {
        l.insert(k, v);
        latest.put(k, v);
      } else if (rnd.chance(0.4)) {
        l.delete(k, old);
        latest.remove(k);
      } else {
        l.update(k, old, v);
        latest.put(k, v);
      }
    }
  }

  private void seal(boolean checkpoint) throws Exception {
    long epoch = Epochs.of(epochCounter);
    epochCounter++;
    log("seal " + epochCounter + (checkpoint ? " checkpoint" : ""));
    for (LocalStateStore l : locals.values()) {
      l.sealCurrentEpoch(Epochs.of(epochCounter));
    }
    sealed.put(epoch, new TreeMap<>(latest));
    if (checkpoint) {
      SyncResult r = engine.sync(epoch).get();
      engine.commitEpoch(epoch, r.ssts(), r.statsDelta());
      committed = epoch;
      assertThat(engine.committedEpoch()).isEqualTo(epoch);
      checkStats();
    }
  }

  private TreeMap<byte[], byte[]> modelAt(long epoch) {
    var e = sealed.floorEntry(epoch);
    return e == null ? new TreeMap<>(Keys.ORDER) : e.getValue();
  }

  private static Map<String, String> asMap(Map<byte[], byte[]> m, int table) {
    Map<String, String> out = new TreeMap<>();
    m.forEach(
        (k, v) -> {
          if (table < 0 || Keys.tableId(k) == table) {
            out.put(Keys.hex(k), Keys.hex(v));
          }
        });
    return out;
  }

  private static Map<String, String> drain(StateIterator it) {
    Map<String, String> out = new TreeMap<>();
    try (it) {
      byte[] prev = null;
      while (it.next()) {
        if (prev != null) {
          assertThat(Keys.compare(prev, it.key())).as("iterator order").isNegative();
        }
        prev = it.key();
        out.put(Keys.hex(it.key()), Keys.hex(it.value()));
      }
    }
    return out;
  }

  private void readCommitted() {
    if (committed == 0) {
      return;
    }
    long safe = engine.safeEpoch();
    long lo = Epochs.physicalMillis(Math.max(safe, Epochs.of(1)));
    long hi = Epochs.physicalMillis(committed);
    long epoch = Epochs.of(lo + rnd.nextLong(hi - lo + 1));
    log("read committed at " + Epochs.format(epoch));
    TreeMap<byte[], byte[]> model = modelAt(epoch);
    int table = TABLES[rnd.nextInt(TABLES.length)];
    assertThat(drain(engine.iter(KeyRange.table(table), epoch)))
        .as("committed scan of table %s at %s", table, Epochs.format(epoch))
        .isEqualTo(asMap(model, table));
    for (int i = 0; i < 20; i++) {
      byte[] k = randomKey();
      assertThat(engine.get(k, epoch))
          .as("get %s at %s", Keys.hex(k), Epochs.format(epoch))
          .isEqualTo(model.get(k));
    }
    byte[] a = randomKey();
    byte[] b = randomKey();
    KeyRange r = Keys.compare(a, b) <= 0 ? KeyRange.of(a, b) : KeyRange.of(b, a);
    Map<byte[], byte[]> sub = new TreeMap<>(Keys.ORDER);
    model.forEach(
        (k, v) -> {
          if (r.contains(k)) {
            sub.put(k, v);
          }
        });
    assertThat(drain(engine.iter(r, epoch))).as("range scan %s", r).isEqualTo(asMap(sub, -1));
  }

  private void readUncommitted() {
    log("read uncommitted");
    for (int t : TABLES) {
      assertThat(drain(locals.get(t).iter(KeyRange.table(t))))
          .as("writer scan of table %s", t)
          .isEqualTo(asMap(latest, t));
    }
    for (int i = 0; i < 20; i++) {
      byte[] k = randomKey();
      assertThat(locals.get(Keys.tableId(k)).get(k))
          .as("writer get %s", Keys.hex(k))
          .isEqualTo(latest.get(k));
    }
  }

  private void pinOrCheckPinned() {
    if (pinned.isEmpty() && committed > 0) {
      int table = TABLES[rnd.nextInt(TABLES.length)];
      log("pin at " + Epochs.format(committed));
      pinned.add(new Pinned(engine.iter(KeyRange.table(table), committed), committed, table));
    } else {
      closePinned();
    }
  }

  private void closePinned() {
    for (Pinned p : pinned) {
      log("check pinned at " + Epochs.format(p.epoch()));
      assertThat(drain(p.it()))
          .as("pinned scan at %s", Epochs.format(p.epoch()))
          .isEqualTo(asMap(modelAt(p.epoch()), p.table()));
    }
    pinned.clear();
  }

  private void reopen() {
    log("reopen");
    closePinned();
    engine.close();
    latest = new TreeMap<>(modelAt(committed));
    sealed.tailMap(committed, false).clear();
    open();
    assertThat(engine.committedEpoch()).isEqualTo(committed);
    checkStats();
  }

  /** Stats of the committed version equal a scan of its files, and live rows equal the model. */
  void checkStats() {
    var v = engine.version();
    Map<Integer, TableStats> scanned = new HashMap<>();
    for (SstInfo s : v.allSsts()) {
      try (EntryIterator it = engine.readers().get(s).iterator(KeyRange.ALL)) {
        while (it.next()) {
          TableStats.addInto(
              scanned,
              Keys.tableId(it.key()),
              TableStats.ofEntry(it.key().length, it.value().length));
        }
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    }
    TreeMap<byte[], byte[]> model = modelAt(v.maxCommittedEpoch());
    for (int t : TABLES) {
      TableStats s = v.stats(t);
      TableStats f = scanned.getOrDefault(t, TableStats.ZERO);
      long live = model.keySet().stream().filter(k -> Keys.tableId(k) == t).count();
      assertThat(
              new TableStats(
                  s.totalKeyCount(), s.totalKeyBytes(), s.totalValueBytes(), s.liveRowCount()))
          .as("stats of table %s in %s", t, v)
          .isEqualTo(
              new TableStats(f.totalKeyCount(), f.totalKeyBytes(), f.totalValueBytes(), live));
    }
  }

  private void checkFullyCompactedStatsAreExact() {
    var v = engine.version();
    for (int t : TABLES) {
      assertThat(v.stats(t).totalKeyCount())
          .as("key count of table %s after a full compaction", t)
          .isEqualTo(v.stats(t).liveRowCount());
    }
  }

  static String hex(byte[] b) {
    return Arrays.toString(b);
  }
}

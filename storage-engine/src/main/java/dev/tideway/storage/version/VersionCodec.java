package dev.tideway.storage.version;

import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.TableStats;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The persisted form of {@link Version} (checkpoints) and {@link VersionDelta} (the delta log):
 * {@code magic (4) | format version (4) | TLV fields | CRC32C (4)}. Field tags are constants below
 * and are never reused; unknown tags are skipped. Version {@value #FORMAT_VERSION}. A golden file
 * of each released format lives in the test resources and must keep decoding.
 */
public final class VersionCodec {
  public static final int FORMAT_VERSION = 1;
  static final int MAGIC_VERSION = 0x54575643; // "TWVC"
  static final int MAGIC_DELTA = 0x54575644; // "TWVD"

  // Version fields.
  static final int V_ID = 1;
  static final int V_MAX_COMMITTED = 2;
  static final int V_SAFE = 3;
  static final int V_LEVEL = 4;
  static final int V_STATS = 5;
  static final int V_CHANGE_LOG = 6;
  static final int V_MAX_SST_ID = 7;
  static final int V_DROPPED_TABLE = 8;
  // Level fields.
  static final int L_INDEX = 1;
  static final int L_SST = 2;
  static final int L_REMOVED = 3;
  // SstInfo fields.
  static final int S_ID = 1;
  static final int S_SIZE = 2;
  static final int S_CRC = 3;
  static final int S_MIN_KEY = 4;
  static final int S_MAX_KEY = 5;
  static final int S_MIN_EPOCH = 6;
  static final int S_MAX_EPOCH = 7;
  static final int S_ROWS = 8;
  static final int S_TOMBSTONES = 9;
  static final int S_STATS = 10;
  // Delta fields.
  static final int D_ID = 1;
  static final int D_KIND = 2;
  static final int D_MAX_COMMITTED = 3;
  static final int D_SAFE = 4;
  static final int D_CHANGE = 5;
  static final int D_STATS = 6;
  static final int D_CHANGE_LOG = 7;
  static final int D_MAX_SST_ID = 8;
  static final int D_DROPPED_TABLE = 9;

  private VersionCodec() {}

  public static byte[] encode(Version v) {
    Tlv.Writer w = new Tlv.Writer();
    w.i64(V_ID, v.id()).i64(V_MAX_COMMITTED, v.maxCommittedEpoch()).i64(V_SAFE, v.safeEpoch());
    for (Level l : v.levels()) {
      Tlv.Writer lw = new Tlv.Writer().i32(L_INDEX, l.index());
      l.ssts().forEach(s -> lw.nested(L_SST, sst(s)));
      w.nested(V_LEVEL, lw);
    }
    v.tableStats().forEach((t, s) -> w.field(V_STATS, stats(t, s)));
    v.changeLogs()
        .forEach(
            (t, e) -> w.field(V_CHANGE_LOG, ByteBuffer.allocate(12).putInt(t).putLong(e).array()));
    w.i64(V_MAX_SST_ID, v.maxSstId());
    v.droppedTables().stream().sorted().forEach(t -> w.i32(V_DROPPED_TABLE, t));
    return frame(MAGIC_VERSION, w.toByteArray());
  }

  public static Version decodeVersion(byte[] bytes, String what) {
    Tlv.Reader r = unframe(MAGIC_VERSION, bytes, what);
    Version empty = Version.empty();
    long id = 0;
    long committed = 0;
    long safe = 0;
    long maxSst = 0;
    List<Level> levels = new ArrayList<>(empty.levels());
    Map<Integer, TableStats> stats = new HashMap<>();
    Map<Integer, Long> logs = new HashMap<>();
    java.util.Set<Integer> dropped = new java.util.HashSet<>();
    while (r.next()) {
      switch (r.tag()) {
        case V_ID -> id = r.i64();
        case V_MAX_COMMITTED -> committed = r.i64();
        case V_SAFE -> safe = r.i64();
        case V_LEVEL -> {
          Level l = level(r.nested());
          levels.set(l.index(), l);
        }
        case V_STATS -> readStats(r.bytes(), stats);
        case V_CHANGE_LOG -> {
          ByteBuffer b = ByteBuffer.wrap(r.bytes());
          logs.put(b.getInt(), b.getLong());
        }
        case V_MAX_SST_ID -> maxSst = r.i64();
        case V_DROPPED_TABLE -> dropped.add(r.i32());
        default -> {
          // Unknown field of a newer writer: skipped.
        }
      }
    }
    return new Version(id, committed, safe, levels, stats, logs, maxSst, dropped);
  }

  public static byte[] encode(VersionDelta d) {
    Tlv.Writer w = new Tlv.Writer();
    w.i64(D_ID, d.id()).i32(D_KIND, d.kind().code);
    w.i64(D_MAX_COMMITTED, d.maxCommittedEpoch()).i64(D_SAFE, d.safeEpoch());
    for (VersionDelta.LevelChange c : d.changes()) {
      Tlv.Writer cw = new Tlv.Writer().i32(L_INDEX, c.level());
      c.removed().forEach(id -> cw.i64(L_REMOVED, id));
      c.added().forEach(s -> cw.nested(L_SST, sst(s)));
      w.nested(D_CHANGE, cw);
    }
    d.statsDelta().forEach((t, s) -> w.field(D_STATS, stats(t, s)));
    d.changeLogChanges()
        .forEach(
            (t, e) -> w.field(D_CHANGE_LOG, ByteBuffer.allocate(12).putInt(t).putLong(e).array()));
    w.i64(D_MAX_SST_ID, d.maxSstId());
    d.droppedTables().stream().sorted().forEach(t -> w.i32(D_DROPPED_TABLE, t));
    return frame(MAGIC_DELTA, w.toByteArray());
  }

  public static VersionDelta decodeDelta(byte[] bytes, String what) {
    Tlv.Reader r = unframe(MAGIC_DELTA, bytes, what);
    long id = 0;
    VersionDelta.Kind kind = null;
    long committed = 0;
    long safe = 0;
    long maxSst = 0;
    List<VersionDelta.LevelChange> changes = new ArrayList<>();
    Map<Integer, TableStats> stats = new HashMap<>();
    Map<Integer, Long> logs = new HashMap<>();
    java.util.Set<Integer> dropped = new java.util.HashSet<>();
    while (r.next()) {
      switch (r.tag()) {
        case D_ID -> id = r.i64();
        case D_KIND -> kind = VersionDelta.Kind.of(r.i32());
        case D_MAX_COMMITTED -> committed = r.i64();
        case D_SAFE -> safe = r.i64();
        case D_CHANGE -> changes.add(change(r.nested()));
        case D_STATS -> readStats(r.bytes(), stats);
        case D_CHANGE_LOG -> {
          ByteBuffer b = ByteBuffer.wrap(r.bytes());
          logs.put(b.getInt(), b.getLong());
        }
        case D_MAX_SST_ID -> maxSst = r.i64();
        case D_DROPPED_TABLE -> dropped.add(r.i32());
        default -> {
          // Unknown field of a newer writer: skipped.
        }
      }
    }
    if (kind == null) {
      throw new StorageException(StorageException.Reason.CORRUPTED, what + " has no delta kind");
    }
    return new VersionDelta(id, kind, committed, safe, changes, stats, logs, maxSst, dropped);
  }

  private static byte[] frame(int magic, byte[] body) {
    ByteBuffer b = ByteBuffer.allocate(8 + body.length + 4);
    b.putInt(magic).putInt(FORMAT_VERSION).put(body);
    CRC32C crc = new CRC32C();
    crc.update(b.array(), 0, b.position());
    b.putInt((int) crc.getValue());
    return b.array();
  }

  private static Tlv.Reader unframe(int magic, byte[] bytes, String what) {
    if (bytes.length < 12) {
      throw new StorageException(
          StorageException.Reason.CORRUPTED, what + " is truncated: " + bytes.length + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, bytes.length - 4);
    if ((int) crc.getValue() != b.getInt(bytes.length - 4)) {
      throw new StorageException(
          StorageException.Reason.CORRUPTED, what + " is corrupted: checksum mismatch");
    }
    if (b.getInt() != magic) {
      throw new StorageException(
          StorageException.Reason.CORRUPTED, what + " has a wrong magic number");
    }
    int format = b.getInt();
    if (format > FORMAT_VERSION) {
      throw new StorageException(
          StorageException.Reason.CORRUPTED,
          what + " has format " + format + ", newer than " + FORMAT_VERSION);
    }
    return new Tlv.Reader(ByteBuffer.wrap(bytes, 8, bytes.length - 12).slice());
  }

  private static byte[] stats(int table, TableStats s) {
    return ByteBuffer.allocate(36)
        .putInt(table)
        .putLong(s.totalKeyCount())
        .putLong(s.totalKeyBytes())
        .putLong(s.totalValueBytes())
        .putLong(s.liveRowCount())
        .array();
  }

  private static void readStats(byte[] bytes, Map<Integer, TableStats> into) {
    ByteBuffer b = ByteBuffer.wrap(bytes);
    into.put(b.getInt(), new TableStats(b.getLong(), b.getLong(), b.getLong(), b.getLong()));
  }

  private static Tlv.Writer sst(SstInfo s) {
    Tlv.Writer w = new Tlv.Writer();
    w.i64(S_ID, s.id()).i64(S_SIZE, s.fileSize()).i32(S_CRC, s.fileCrc32c());
    w.field(S_MIN_KEY, s.minKey()).field(S_MAX_KEY, s.maxKey());
    w.i64(S_MIN_EPOCH, s.minEpoch()).i64(S_MAX_EPOCH, s.maxEpoch());
    w.i64(S_ROWS, s.rowCount()).i64(S_TOMBSTONES, s.tombstoneCount());
    s.tableStats().forEach((t, st) -> w.field(S_STATS, stats(t, st)));
    return w;
  }

  private static SstInfo sst(Tlv.Reader r) {
    long id = 0, size = 0, minE = 0, maxE = 0, rows = 0, tomb = 0;
    int crc = 0;
    byte[] minK = new byte[0], maxK = new byte[0];
    Map<Integer, TableStats> stats = new HashMap<>();
    while (r.next()) {
      switch (r.tag()) {
        case S_ID -> id = r.i64();
        case S_SIZE -> size = r.i64();
        case S_CRC -> crc = r.i32();
        case S_MIN_KEY -> minK = r.bytes();
        case S_MAX_KEY -> maxK = r.bytes();
        case S_MIN_EPOCH -> minE = r.i64();
        case S_MAX_EPOCH -> maxE = r.i64();
        case S_ROWS -> rows = r.i64();
        case S_TOMBSTONES -> tomb = r.i64();
        case S_STATS -> readStats(r.bytes(), stats);
        default -> {
          // Unknown field: skipped.
        }
      }
    }
    return new SstInfo(id, size, crc, minK, maxK, minE, maxE, rows, tomb, stats);
  }

  private static Level level(Tlv.Reader r) {
    int index = -1;
    List<SstInfo> ssts = new ArrayList<>();
    while (r.next()) {
      if (r.tag() == L_INDEX) {
        index = r.i32();
      } else if (r.tag() == L_SST) {
        ssts.add(sst(r.nested()));
      }
    }
    return new Level(index, ssts);
  }

  private static VersionDelta.LevelChange change(Tlv.Reader r) {
    int index = -1;
    List<Long> removed = new ArrayList<>();
    List<SstInfo> added = new ArrayList<>();
    while (r.next()) {
      switch (r.tag()) {
        case L_INDEX -> index = r.i32();
        case L_REMOVED -> removed.add(r.i64());
        case L_SST -> added.add(sst(r.nested()));
        default -> {
          // Unknown field: skipped.
        }
      }
    }
    return new VersionDelta.LevelChange(index, removed, added);
  }

  /** For tests: whether two encodings are byte-identical. */
  static boolean sameBytes(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }
}

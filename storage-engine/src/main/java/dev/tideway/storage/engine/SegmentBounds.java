package dev.tideway.storage.engine;

import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.sst.SstReader;
import dev.tideway.storage.sst.SstReaders;
import dev.tideway.storage.version.Level;
import dev.tideway.storage.version.Version;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * For the current version, the last key of each segment (a table's vnode) over all its SSTs, so a
 * get of a key past it skips every SST: the check that an inserted key is new costs one comparison
 * instead of a bloom probe per L0 SST when keys arrive in ascending order per vnode (a bulk load of
 * ids or timestamps). Computed per segment on first use from the SSTs' {@code SegmentLasts}, and
 * kept for the last two versions asked about; a segment of an SST that records none is unknown
 * (probed as before). Thread-safe.
 */
final class SegmentBounds {
  /** No SST of the version holds a key of the segment. */
  private static final byte[] NONE = new byte[0];

  /** Some SST of the version does not record its segments. */
  private static final byte[] UNKNOWN = new byte[0];

  private final SstReaders readers;

  /** The newest version's bounds, and the one before (a read pinned to an older epoch). */
  private volatile Cache newest;

  private volatile Cache older;

  private record Cache(Version version, ConcurrentHashMap<Long, byte[]> lasts) {}

  SegmentBounds(SstReaders readers) {
    this.readers = readers;
  }

  SstReaders readers() {
    return readers;
  }

  /** Whether {@code key} lies past every key of its segment in the SSTs of {@code v}. */
  boolean pastEverySst(Version v, byte[] key) {
    if (key.length < Keys.PREFIX_LEN) {
      return false;
    }
    Cache c = newest;
    if (c == null || c.version() != v) {
      Cache o = older;
      if (o != null && o.version() == v) {
        c = o;
      } else {
        c = new Cache(v, new ConcurrentHashMap<>());
        older = newest;
        newest = c;
      }
    }
    long segment = segment(key);
    byte[] last = c.lasts().get(segment);
    if (last == null) {
      last = lastInSegment(v, key);
      c.lasts().put(segment, last);
    }
    return last != UNKNOWN && (last == NONE || Keys.compare(key, last) > 0);
  }

  private byte[] lastInSegment(Version v, byte[] key) {
    byte[] prefix = Arrays.copyOf(key, Keys.PREFIX_LEN);
    byte[] end = Keys.prefixEnd(prefix);
    byte[] last = NONE;
    for (Level l : v.levels()) {
      for (SstInfo s : l.ssts()) {
        if (Keys.compare(s.maxKey(), prefix) < 0
            || (end != null && Keys.compare(s.minKey(), end) >= 0)) {
          continue;
        }
        byte[] k = readers.get(s).lastKeyInSegment(key);
        if (k == null) {
          return UNKNOWN;
        }
        if (k != SstReader.NO_KEY_IN_SEGMENT && (last == NONE || Keys.compare(k, last) > 0)) {
          last = k;
        }
      }
    }
    return last;
  }

  private static long segment(byte[] key) {
    long s = 0;
    for (int i = 0; i < Keys.PREFIX_LEN; i++) {
      s = (s << 8) | (key[i] & 0xFF);
    }
    return s;
  }
}

package dev.tideway.storage.engine;

import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.sst.SstReader;
import dev.tideway.storage.sst.SstReaders;
import dev.tideway.storage.version.Level;
import dev.tideway.storage.version.Version;
import java.util.ArrayList;
import java.util.List;

/** Reads of one pinned version's SSTs. Stateless. */
final class VersionReads {
  private VersionReads() {}

  /** One source per SST overlapping {@code range} with entries at or below {@code maxEpoch}. */
  static List<EntryIterator> sources(Version v, SstReaders readers, KeyRange range, long maxEpoch) {
    List<EntryIterator> out = new ArrayList<>();
    for (Level l : v.levels()) {
      for (SstInfo s : l.ssts()) {
        if (s.overlaps(range) && s.minEpoch() <= maxEpoch) {
          out.add(readers.get(s).iterator(range));
        }
      }
    }
    return out;
  }

  /**
   * The newest version of {@code key} at or below {@code maxEpoch} that is newer than {@code best}
   * (which may be null). SSTs whose newest epoch cannot beat {@code best} are not opened.
   */
  static Entry get(Version v, SegmentBounds bounds, byte[] key, long maxEpoch, Entry best) {
    if (bounds.pastEverySst(v, key)) {
      return best; // an insert's new key, past the last of its vnode: no SST can hold it
    }
    SstReaders readers = bounds.readers();
    long hash = SstReader.bloomHash(key); // once for every SST probed
    for (Level l : v.levels()) {
      if (l.index() == 0) {
        for (SstInfo s : l.ssts()) {
          best = better(best, probe(s, readers, key, hash, maxEpoch, best));
        }
      } else {
        SstInfo s = find(l.ssts(), key);
        if (s != null) {
          best = better(best, probe(s, readers, key, hash, maxEpoch, best));
        }
      }
    }
    return best;
  }

  private static Entry probe(
      SstInfo s, SstReaders readers, byte[] key, long hash, long maxEpoch, Entry best) {
    if (best != null && s.maxEpoch() <= best.epoch()) {
      return null;
    }
    if (Keys.compare(key, s.minKey()) < 0 || Keys.compare(key, s.maxKey()) > 0) {
      return null;
    }
    return readers.get(s).get(key, hash, maxEpoch);
  }

  static Entry better(Entry a, Entry b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return b.epoch() > a.epoch() ? b : a;
  }

  /** The SST of a sorted run that may hold {@code key}. */
  private static SstInfo find(List<SstInfo> run, byte[] key) {
    int lo = 0;
    int hi = run.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      SstInfo s = run.get(mid);
      if (Keys.compare(s.maxKey(), key) < 0) {
        lo = mid + 1;
      } else if (Keys.compare(s.minKey(), key) > 0) {
        hi = mid - 1;
      } else {
        return s;
      }
    }
    return null;
  }
}

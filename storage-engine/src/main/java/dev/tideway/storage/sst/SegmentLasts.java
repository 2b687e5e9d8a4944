package dev.tideway.storage.sst;

import dev.tideway.storage.api.Keys;
import java.util.Arrays;

/**
 * The last key of every segment (a table's vnode: the keys sharing a {@link Keys#PREFIX_LEN}-byte
 * {@code table_id | vnode} prefix) an SST holds, in its footer (format 2).
 *
 * <p>Why: an insert checks that its key is new (a table's primary key overwrites), and that check
 * probed every L0 SST's bloom filter, most of a bulk INSERT's actor time. Keys loaded in ascending
 * order per vnode (ids, timestamps) lie past every SST's last key of their segment, which one
 * comparison against the version's bound tells ({@code engine.SegmentBounds}).
 *
 * <p>An SST with more than {@link #MAX_SEGMENTS} segments (a compaction output over many tables)
 * records none: its footer stays small and a get probes it as before.
 */
final class SegmentLasts {
  static final int MAX_SEGMENTS = 4096;

  private final PageFences.KeyListWriter out = new PageFences.KeyListWriter();
  private byte[] last;
  private boolean overflow;

  void add(byte[] key) {
    if (overflow) {
      return;
    }
    if (key.length < Keys.PREFIX_LEN) {
      overflow = true; // not a table key: no segments
      return;
    }
    if (last != null && !samePrefix(last, key)) {
      out.add(last);
      if (out.count() >= MAX_SEGMENTS) {
        overflow = true;
        return;
      }
    }
    last = key;
  }

  /** The encoded list, or null when this SST records no segments. */
  String finish() {
    if (overflow || last == null) {
      return null;
    }
    out.add(last);
    return out.finish();
  }

  static boolean samePrefix(byte[] a, byte[] b) {
    return a.length >= Keys.PREFIX_LEN
        && b.length >= Keys.PREFIX_LEN
        && Arrays.equals(a, 0, Keys.PREFIX_LEN, b, 0, Keys.PREFIX_LEN);
  }

  /**
   * The last key of {@code key}'s segment in {@code lasts} (sorted, one per segment): that key, or
   * null when the segment is absent.
   */
  static byte[] find(byte[][] lasts, byte[] key) {
    int lo = 0;
    int hi = lasts.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = Arrays.compareUnsigned(lasts[mid], 0, Keys.PREFIX_LEN, key, 0, Keys.PREFIX_LEN);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return lasts[mid];
      }
    }
    return null;
  }
}

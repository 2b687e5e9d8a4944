package dev.tideway.storage.sst;

import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.api.Binary;

/**
 * Where an SST's keys are, loaded at open: every page's row span (Parquet's offset index), an upper
 * bound of its max key and a lower bound of its first key, each row group's key bloom filter, and
 * the last key of each table vnode.
 *
 * <p>Format 2 takes the key bounds from the footer's {@link PageFences}: exact where Parquet cut a
 * page at the fence interval, bounds elsewhere (pages cut by bytes, row groups ending between
 * fences). Format 1 takes them from the key column's column index (values truncated to 64 bytes, a
 * max rounded up). Pages are numbered across the file, row group by row group.
 */
final class SstIndex {
  private static final byte[] NO_KEY = new byte[0];

  /** Parquet's default length of column index min/max values (format 1 files). */
  private static final int COLUMN_INDEX_TRUNCATE_LENGTH = 64;

  private final OffsetIndex[] offsetIndex;

  /** rgFirstPage[rg] = index of the row group's first page; one extra entry at the end. */
  private final int[] rgFirstPage;

  private final byte[][] pageMax;
  private final byte[][] pageMin;

  /** Whether pageMax of a row group's last page is its true max key (not only an upper bound). */
  private final boolean[] rgEndExact;

  /** The key column's bloom filter of each row group. */
  private final BloomFilter[] bloom;

  /** {@link SegmentLasts} of the footer, or null when the SST records none. */
  private final byte[][] segmentLasts;

  /** A malformed index: the reader reports the file corrupted with this message. */
  static final class Malformed extends Exception {
    Malformed(String message) {
      super(message);
    }
  }

  private SstIndex(
      OffsetIndex[] offsetIndex,
      int[] rgFirstPage,
      byte[][] pageMax,
      byte[][] pageMin,
      boolean[] rgEndExact,
      BloomFilter[] bloom,
      byte[][] segmentLasts) {
    this.offsetIndex = offsetIndex;
    this.bloom = bloom;
    this.rgFirstPage = rgFirstPage;
    this.pageMax = pageMax;
    this.pageMin = pageMin;
    this.rgEndExact = rgEndExact;
    this.segmentLasts = segmentLasts;
  }

  static SstIndex read(ParquetFileReader reader, Map<String, String> meta)
      throws IOException, Malformed {
    List<BlockMetaData> rowGroups = reader.getRowGroups();
    int n = rowGroups.size();
    OffsetIndex[] offsetIndex = new OffsetIndex[n];
    int[] rgFirstPage = new int[n + 1];
    boolean[] rgEndExact = new boolean[n];
    BloomFilter[] bloom = new BloomFilter[n];
    String fenceText = meta.get(SstFormat.META_PAGE_FENCES);
    byte[][] fences = fenceText == null ? null : decode(fenceText);
    String lastsText = meta.get(SstFormat.META_SEGMENT_LASTS);
    byte[][] segmentLasts = lastsText == null ? null : decode(lastsText);
    int rowsPerFence =
        fences == null ? 0 : Integer.parseInt(meta.get(SstFormat.META_PAGE_FENCE_ROWS));
    List<byte[]> maxes = new ArrayList<>();
    List<byte[]> mins = new ArrayList<>();
    long rgStartRow = 0;
    for (int rg = 0; rg < n; rg++) {
      ColumnChunkMetaData k = rowGroups.get(rg).getColumns().get(0);
      offsetIndex[rg] = reader.readOffsetIndex(k);
      bloom[rg] = reader.readBloomFilter(k);
      if (offsetIndex[rg] == null) {
        throw new Malformed("row group " + rg + " has no offset index");
      }
      rgFirstPage[rg] = maxes.size();
      long rgRows = rowGroups.get(rg).getRowCount();
      if (fences != null) {
        addFencedBounds(maxes, mins, fences, rowsPerFence, offsetIndex[rg], rgStartRow, rgRows);
        long end = rgStartRow + rgRows;
        rgEndExact[rg] = end % rowsPerFence == 0 || end == reader.getRecordCount();
      } else {
        addColumnIndexBounds(maxes, mins, reader.readColumnIndex(k), rg);
        rgEndExact[rg] = maxes.get(maxes.size() - 1).length < COLUMN_INDEX_TRUNCATE_LENGTH;
      }
      rgStartRow += rgRows;
    }
    rgFirstPage[n] = maxes.size();
    return new SstIndex(
        offsetIndex,
        rgFirstPage,
        maxes.toArray(new byte[0][]),
        mins.toArray(new byte[0][]),
        rgEndExact,
        bloom,
        segmentLasts);
  }

  private static byte[][] decode(String text) throws Malformed {
    try {
      return PageFences.decode(text);
    } catch (IllegalArgumentException e) {
      throw new Malformed("page fences: " + e.getMessage());
    }
  }

  /**
   * An upper bound of each page's max key: the fence closing the group of {@code rowsPerFence} rows
   * that holds the page's last row; and a lower bound of its first key: the fence closing the group
   * before the one holding its first row. Both are exact when pages are cut at the fence interval,
   * as they are unless a page fills its byte limit first.
   */
  private static void addFencedBounds(
      List<byte[]> maxes,
      List<byte[]> mins,
      byte[][] fences,
      int rowsPerFence,
      OffsetIndex pages,
      long rgStartRow,
      long rgRows)
      throws Malformed {
    if (rowsPerFence <= 0) {
      throw new Malformed("page fence interval " + rowsPerFence);
    }
    int count = pages.getPageCount();
    for (int p = 0; p < count; p++) {
      long firstRow = rgStartRow + pages.getFirstRowIndex(p);
      long lastRow = rgStartRow + (p + 1 < count ? pages.getFirstRowIndex(p + 1) : rgRows) - 1;
      long fence = lastRow / rowsPerFence;
      if (fence >= fences.length) {
        throw new Malformed("page fences cover fewer rows than the file holds");
      }
      maxes.add(fences[(int) fence]);
      long before = firstRow / rowsPerFence - 1;
      mins.add(before < 0 ? NO_KEY : fences[(int) before]);
    }
  }

  /** Format 1: page key bounds from the key column's column index. */
  private static void addColumnIndexBounds(
      List<byte[]> maxes, List<byte[]> mins, ColumnIndex ci, int rg) throws Malformed {
    if (ci == null) {
      throw new Malformed("row group " + rg + " has no page index");
    }
    for (ByteBuffer max : ci.getMaxValues()) {
      maxes.add(bytes(max));
    }
    for (ByteBuffer min : ci.getMinValues()) {
      mins.add(bytes(min));
    }
  }

  private static byte[] bytes(ByteBuffer buf) {
    byte[] b = new byte[buf.remaining()];
    buf.duplicate().get(b);
    return b;
  }

  /**
   * Whether row group {@code rg}'s bloom filter may hold {@code key}. Parquet's {@code
   * BlockSplitBloomFilter.findHash} builds its probe mask in a field of the filter, so two threads
   * probing one SST at once could read each other's mask and answer "absent" for a key the SST
   * holds: a point get then missed a committed row (seen as a join deleting a row it "does not
   * hold"). The probe holds the filter's lock; the hash, computed before, is stateless.
   */
  boolean mayContain(int rg, byte[] key, long keyHash) {
    BloomFilter f = bloom[rg];
    long h =
        f.getHashStrategy() == BloomFilter.HashStrategy.XXH64
            ? keyHash
            : f.hash(Binary.fromConstantByteArray(key));
    synchronized (f) {
      return f.findHash(h);
    }
  }

  /**
   * Whether the key may lie in row group {@code rg}, or in a later one while page max keys are only
   * upper bounds at row group ends: a bound past a row group's true max may send a key that starts
   * the next row group to this one.
   */
  boolean mayContainFrom(int rg, byte[] key, long keyHash) {
    for (int r = rg; r < bloom.length; r++) {
      if (mayContain(r, key, keyHash)) {
        return true;
      }
      if (rgEndExact[r]) {
        return false;
      }
    }
    return false;
  }

  int pageCount() {
    return pageMax.length;
  }

  int rowGroupCount() {
    return offsetIndex.length;
  }

  OffsetIndex offsetIndex(int rg) {
    return offsetIndex[rg];
  }

  /**
   * The index of row group {@code rg}'s first page; {@code rg} = the row group count is the end.
   */
  int firstPageOf(int rg) {
    return rgFirstPage[rg];
  }

  /** Whether the bound of row group {@code rg}'s last page is its true max key. */
  boolean endExact(int rg) {
    return rgEndExact[rg];
  }

  /**
   * Whether page {@code page} starts at or past {@code range}'s end (so no later page is in it).
   */
  boolean startsPast(int page, KeyRange range) {
    return range.end() != null && range.isAfter(pageMin[page]);
  }

  /** The first page whose (upper bound of its) max key is at least {@code key}, or -1. */
  int firstPageWithMaxAtLeast(byte[] key) {
    return firstPageWithMaxAtLeast(key, 0, pageMax.length);
  }

  /** The first page of {@code [from, to)} whose max key is at least {@code key}, or -1. */
  int firstPageWithMaxAtLeast(byte[] key, int from, int to) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Keys.compare(pageMax[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo == to ? -1 : lo;
  }

  /** The row group holding {@code page}; -1 for page -1. */
  int rowGroupOf(int page) {
    int rg = Arrays.binarySearch(rgFirstPage, page);
    if (rg < 0) {
      return -rg - 2;
    }
    while (rg + 1 < rgFirstPage.length && rgFirstPage[rg + 1] == page) {
      rg++;
    }
    return rg;
  }

  /**
   * The last key of {@code key}'s segment (table and vnode): that key, {@link
   * SstReader#NO_KEY_IN_SEGMENT}, or null when the SST does not record its segments.
   */
  byte[] lastKeyInSegment(byte[] key) {
    if (segmentLasts == null || key.length < Keys.PREFIX_LEN) {
      return null;
    }
    byte[] last = SegmentLasts.find(segmentLasts, key);
    return last == null ? SstReader.NO_KEY_IN_SEGMENT : last;
  }
}

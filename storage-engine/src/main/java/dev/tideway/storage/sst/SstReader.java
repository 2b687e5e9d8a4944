package dev.tideway.storage.sst;

import dev.tideway.common.fault.InjectedFault;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.iterator.CurrentEntryIterator;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.objectstore.ObjectStore;
import dev.tideway.storage.objectstore.ObjectStoreUnavailableException;
import dev.tideway.storage.objectstore.RandomAccessObject;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.IntStream;
import java.util.zip.CRC32C;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.values.bloomfilter.XxHash;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.internal.filter2.columnindex.RowRanges;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;

/**
 * Reads one SST. {@link #open} verifies the file before anything is served: size and whole-file
 * CRC32C against the {@link SstInfo}, then the footer (format version, table ids, key bounds); page
 * CRCs are verified on every page read, and a full scan re-checks the footer's row checksum. Any
 * mismatch is a {@link StorageException} with reason CORRUPTED naming the file: never wrong data.
 *
 * <p>Overview: at open the page index (an upper bound of every page's max key, from the footer's
 * {@link PageFences}, or format 1's column index, and the row span of every page) and the key bloom
 * filter of every row group are loaded into memory. A get checks the key bounds, the bloom filter,
 * binary-searches the page and reads that page's 256-row block through the shared {@link
 * BlockCache}. Scans read whole row groups and decode rows lazily with column readers.
 *
 * <p>Thread-safe: the underlying {@link ParquetFileReader} holds one stream and is used under
 * {@link #readLock} only for the read call; decoding happens outside the lock.
 */
public final class SstReader implements AutoCloseable {
  private static final List<ColumnDescriptor> COLUMNS = SstFormat.SCHEMA.getColumns();

  private final SstInfo info;
  private final String path;
  private final RandomAccessObject object;
  private final ParquetReadOptions options;

  /** Replaced after a failed read ({@link #readPages}); guarded by {@link #readLock} then. */
  private volatile ParquetFileReader reader;

  /** A read failed: {@link #reader} may hold a cached failure and is reopened before the next. */
  private boolean stale;

  private final ReentrantLock readLock = new ReentrantLock();
  private final BlockCache cache;
  private final String createdBy;
  private final long rowsCrc;
  private final List<BlockMetaData> rowGroups;
  private final SstIndex index;

  private SstReader(SstInfo info, RandomAccessObject object, BlockCache cache) throws IOException {
    this.info = info;
    this.path = info.objectPath();
    this.object = object;
    this.cache = cache;
    this.options =
        ParquetReadOptions.builder(new PlainParquetConfiguration())
            .withCodecFactory(SstCodecs.INSTANCE)
            .usePageChecksumVerification(true)
            .build();
    this.reader = new ParquetFileReader(new ObjectInputFile(object), options);
    Map<String, String> meta = reader.getFooter().getFileMetaData().getKeyValueMetaData();
    this.createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
    verifyFooter(meta);
    this.rowsCrc = Long.parseLong(meta.get(SstFormat.META_ROWS_CRC32C));
    this.rowGroups = reader.getRowGroups();
    try {
      this.index = SstIndex.read(reader, meta);
    } catch (SstIndex.Malformed e) {
      throw corrupted(e.getMessage(), null);
    }
  }

  /** Opens and verifies SST {@code info}; {@code verifyFileChecksum} reads the whole file once. */
  public static SstReader open(
      ObjectStore store, SstInfo info, BlockCache cache, boolean verifyFileChecksum) {
    RandomAccessObject object;
    try {
      object = store.open(info.objectPath());
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot open SST file " + info.objectPath(), e);
    }
    try {
      long len = object.length();
      if (len != info.fileSize()) {
        throw new StorageException(
            StorageException.Reason.CORRUPTED,
            "SST file "
                + info.objectPath()
                + " is corrupted: "
                + len
                + " bytes, expected "
                + info.fileSize());
      }
      if (verifyFileChecksum) {
        verifyChecksum(object, info);
      }
      return new SstReader(info, object, cache);
    } catch (StorageException | InjectedFault e) {
      closeQuietly(object);
      throw e;
    } catch (IOException | RuntimeException e) {
      closeQuietly(object);
      boolean notTheFile = Thread.currentThread().isInterrupted() || notTheFile(e);
      String why = notTheFile ? " cannot be read: " : " is corrupted: ";
      throw new StorageException(
          notTheFile ? StorageException.Reason.OBJECT_STORE : StorageException.Reason.CORRUPTED,
          "SST file " + info.objectPath() + why + e,
          e);
    }
  }

  private static void closeQuietly(RandomAccessObject o) {
    try {
      o.close();
    } catch (IOException ignored) {
      // Already failing; the first error is the one reported.
    }
  }

  private static void verifyChecksum(RandomAccessObject object, SstInfo info) throws IOException {
    CRC32C crc = new CRC32C();
    ByteBuffer buf = ByteBuffer.allocate(1 << 20);
    for (long pos = 0; pos < info.fileSize(); ) {
      buf.clear();
      buf.limit((int) Math.min(buf.capacity(), info.fileSize() - pos));
      object.readFully(pos, buf);
      buf.flip();
      pos += buf.remaining();
      crc.update(buf);
    }
    if ((int) crc.getValue() != info.fileCrc32c()) {
      throw new StorageException(
          StorageException.Reason.CORRUPTED,
          String.format(
              "SST file %s is corrupted: CRC32C %08x, expected %08x",
              info.objectPath(), (int) crc.getValue(), info.fileCrc32c()));
    }
  }

  private void verifyFooter(Map<String, String> meta) {
    String v = meta.get(SstFormat.META_FORMAT_VERSION);
    int version = v == null ? -1 : Integer.parseInt(v);
    if (version < SstFormat.MIN_READABLE_VERSION || version > SstFormat.FORMAT_VERSION) {
      throw corrupted(
          "format version "
              + v
              + ", this reader reads "
              + SstFormat.MIN_READABLE_VERSION
              + " to "
              + SstFormat.FORMAT_VERSION,
          null);
    }
    if (version >= 2 && meta.get(SstFormat.META_PAGE_FENCES) == null) {
      throw corrupted("format " + version + " without page fences", null);
    }
    String tables = meta.get(SstFormat.META_TABLE_IDS);
    String expected =
        String.join(
            ",", info.tableStats().keySet().stream().sorted().map(String::valueOf).toList());
    if (!expected.equals(tables)) {
      throw corrupted("table ids [" + tables + "], expected [" + expected + "]", null);
    }
    if (!Arrays.equals(SstFormat.unhex(meta.get(SstFormat.META_MIN_KEY)), info.minKey())
        || !Arrays.equals(SstFormat.unhex(meta.get(SstFormat.META_MAX_KEY)), info.maxKey())) {
      throw corrupted("key bounds differ from the version's", null);
    }
    long rows = Long.parseLong(meta.get(SstFormat.META_ROW_COUNT));
    if (rows != info.rowCount() || reader.getRecordCount() != rows) {
      throw corrupted(
          "row count " + reader.getRecordCount() + ", expected " + info.rowCount(), null);
    }
  }

  private StorageException corrupted(String what, Throwable cause) {
    return new StorageException(
        StorageException.Reason.CORRUPTED,
        "SST file " + path + " is corrupted: " + what + (cause == null ? "" : ": " + cause),
        cause);
  }

  public SstInfo info() {
    return info;
  }

  private boolean pastItsSegment(byte[] key) {
    byte[] last = lastKeyInSegment(key);
    return last != null && (last == NO_KEY_IN_SEGMENT || Keys.compare(key, last) > 0);
  }

  /** {@link #lastKeyInSegment} when the SST holds no key of the segment. */
  public static final byte[] NO_KEY_IN_SEGMENT = new byte[0];

  /**
   * The SST's last key in {@code key}'s segment (its table and vnode, the first {@code
   * Keys.PREFIX_LEN} bytes): that key, {@link #NO_KEY_IN_SEGMENT}, or null when the SST does not
   * record its segments (format 1, or too many segments).
   */
  public byte[] lastKeyInSegment(byte[] key) {
    return index.lastKeyInSegment(key);
  }

  public int pageCount() {
    return index.pageCount();
  }

  /**
   * The newest version of {@code key} with epoch at most {@code maxEpoch} (a tombstone included),
   * or null.
   */
  /** Hashes keys for the bloom filters: XXH64 with seed 0, Parquet's one hash strategy. */
  private static final XxHash BLOOM_HASH = new XxHash();

  /**
   * The hash every SST's key bloom filter probes {@code key} with. A get that probes several SSTs
   * (every L0 SST, then one per level) computes it once and passes it to {@link #get(byte[], long,
   * long)}: Parquet's own {@code hash(Binary)} copies the key and hashes it again for each filter.
   */
  public static long bloomHash(byte[] key) {
    return BLOOM_HASH.hashBytes(key);
  }

  public Entry get(byte[] key, long maxEpoch) {
    return get(key, bloomHash(key), maxEpoch);
  }

  /**
   * The newest version of {@code key} at or below {@code maxEpoch}; {@code keyHash} = {@link
   * #bloomHash}(key).
   */
  public Entry get(byte[] key, long keyHash, long maxEpoch) {
    if (Keys.compare(key, info.minKey()) < 0 || Keys.compare(key, info.maxKey()) > 0) {
      return null;
    }
    if (info.minEpoch() > maxEpoch) {
      return null;
    }
    int page;
    if (rowGroups.size() == 1) {
      // the bloom filter before the page search: most probes (an insert's check that its key is
      // new) end there
      if (!index.mayContain(0, key, keyHash)) {
        return null;
      }
      page = index.firstPageWithMaxAtLeast(key);
      if (page < 0) {
        return null;
      }
    } else {
      page = index.firstPageWithMaxAtLeast(key);
      if (page < 0 || !index.mayContainFrom(index.rowGroupOf(page), key, keyHash)) {
        return null;
      }
    }
    if (pastItsSegment(key)) {
      return null; // a bloom false positive: the key lies past its vnode's last key here
    }
    try {
      for (int p = page; p < index.pageCount(); p++) {
        Block b = block(p);
        int i = b.lowerBound(key);
        for (; i < b.size(); i++) {
          if (b.compareKey(i, key) != 0) {
            return null;
          }
          if (b.epoch(i) <= maxEpoch) {
            return b.entry(i);
          }
        }
      }
      return null;
    } catch (IOException | RuntimeException e) {
      throw rethrow(e);
    }
  }

  private RuntimeException rethrow(Exception e) {
    if (e instanceof StorageException || e instanceof InjectedFault) {
      return (RuntimeException) e;
    }
    return corrupted("read failed", e);
  }

  private Block block(int page) throws IOException {
    return cache.get(info.id(), page, () -> loadPages(page, page + 1));
  }

  private Block loadPages(int fromPage, int toPage) throws IOException {
    PageReadStore pages = readPages(fromPage, toPage);
    return decode(pages);
  }

  /**
   * Reads pages {@code [fromPage, toPage)}, all in one row group.
   *
   * <p>A failed read can leave the Parquet reader unusable for good: it caches a row group's page
   * index store even when reading that store failed, and every later filtered read of the row group
   * then fails with "no offset index". An interrupted reader thread (a dropped actor) fails its
   * read that way: NIO closes the channel under it. That poisoned a node's cached reader, and every
   * actor reading the SST failed with "corrupted" until the process restarted (seen in the
   * multi-process cluster test after a reset). So a failed read reopens the Parquet reader; an
   * interrupted one fails as an object-store error (retryable), any other is tried once more with
   * the fresh reader, so only a file that really is damaged reports corruption.
   */
  private PageReadStore readPages(int fromPage, int toPage) throws IOException {
    int rg = index.rowGroupOf(fromPage);
    int first = fromPage - index.firstPageOf(rg);
    int last = toPage - index.firstPageOf(rg);
    readLock.lock();
    try {
      try {
        if (stale) {
          reopenLocked();
        }
        return readPagesLocked(rg, first, last);
      } catch (IOException | RuntimeException e) {
        failedRead(e); // reopening would read the footer on an interrupted thread: not now
        try {
          reopenLocked();
          return readPagesLocked(rg, first, last);
        } catch (IOException | RuntimeException again) {
          failedRead(again);
          throw again; // failed twice on a fresh reader: the caller reports the damage
        }
      }
    } finally {
      readLock.unlock();
    }
  }

  /**
   * Marks the reader for reopening after a failed read, and throws when the read was interrupted,
   * the store failed (its client retried) or it is an injected fault: not retried, not corruption.
   */
  private void failedRead(Exception e) {
    stale = true;
    if (e instanceof InjectedFault f) {
      throw f;
    }
    if (Thread.currentThread().isInterrupted() || notTheFile(e)) {
      String how = ObjectStoreUnavailableException.in(e) ? " failed: " : " was interrupted: ";
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "read of SST file " + path + how + e, e);
    }
  }

  private PageReadStore readPagesLocked(int rg, int first, int last) throws IOException {
    if (first == 0 && last == index.firstPageOf(rg + 1) - index.firstPageOf(rg)) {
      return reader.readRowGroup(rg);
    }
    long rgRows = rowGroups.get(rg).getRowCount();
    PrimitiveIterator.OfInt pageIdx = IntStream.range(first, last).iterator();
    return reader.readFilteredRowGroup(
        rg, RowRanges.create(rgRows, pageIdx, index.offsetIndex(rg)));
  }

  /** A fresh Parquet reader over the same object (the old one's cached state is dropped). */
  private void reopenLocked() throws IOException {
    ParquetFileReader old = reader;
    reader = new ParquetFileReader(new ObjectInputFile(object), options);
    stale = false;
    old.close(); // closes only its stream view; the object stays open
  }

  private static boolean notTheFile(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ClosedByInterruptException
          || t instanceof InterruptedIOException
          || t instanceof ObjectStoreUnavailableException) {
        return true;
      }
    }
    return false;
  }

  private Block decode(PageReadStore pages) {
    Cols c = new Cols(pages, createdBy);
    long n = pages.getRowCount();
    Block.Builder b = new Block.Builder((int) n);
    for (long i = 0; i < n; i++) {
      ByteBuffer k = c.key.getBinary().toByteBuffer();
      long epoch = c.epoch.getLong();
      boolean del = c.op.getInteger() == SstFormat.OP_DELETE;
      ByteBuffer v = c.value.getBinary().toByteBuffer();
      b.add(array(k), offset(k), k.remaining(), epoch, del, array(v), offset(v), v.remaining());
      c.consume();
    }
    return b.build();
  }

  private static byte[] array(ByteBuffer b) {
    if (b.hasArray()) {
      return b.array();
    }
    byte[] copy = new byte[b.remaining()];
    b.duplicate().get(copy);
    return copy;
  }

  private static int offset(ByteBuffer b) {
    return b.hasArray() ? b.arrayOffset() + b.position() : 0;
  }

  /**
   * Iterates the entries of {@code range} in storage order. A range within a few pages (a prefix:
   * the executors' state reads) goes page by page through the block cache, so it decodes only the
   * pages it touches, and only once while they stay cached; a wider one (a table or whole-file
   * scan: compaction, recovery, batch reads) streams row groups past the cache, and a whole-file
   * scan verifies the rows checksum.
   */
  public EntryIterator iterator(KeyRange range) {
    if (range.start() == null || range.end() == null) {
      return new Scan(range);
    }
    int first = index.firstPageWithMaxAtLeast(range.start());
    int last = index.firstPageWithMaxAtLeast(range.end());
    boolean narrow = first < 0 || (last >= 0 && last - first < BLOCK_SCAN_MAX_PAGES);
    return narrow ? new BlockScan(range) : new Scan(range);
  }

  /** Ranges spanning fewer pages than this are scanned through the block cache. */
  static final int BLOCK_SCAN_MAX_PAGES = 8;

  @Override
  public void close() throws IOException {
    readLock.lock();
    try {
      reader.close();
      object.close();
    } finally {
      readLock.unlock();
    }
  }

  /** The four column readers over one page store. */
  private static final class Cols {
    final ColumnReader key;
    final ColumnReader epoch;
    final ColumnReader op;
    final ColumnReader value;

    Cols(PageReadStore pages, String createdBy) {
      ColumnReadStoreImpl store =
          new ColumnReadStoreImpl(pages, NoopConverter.INSTANCE, SstFormat.SCHEMA, createdBy);
      key = store.getColumnReader(COLUMNS.get(0));
      epoch = store.getColumnReader(COLUMNS.get(1));
      op = store.getColumnReader(COLUMNS.get(2));
      value = store.getColumnReader(COLUMNS.get(3));
    }

    void consume() {
      key.consume();
      epoch.consume();
      op.consume();
      value.consume();
    }
  }

  /** A range scan decoding rows lazily, one row group at a time. */
  private final class Scan extends CurrentEntryIterator {
    private final KeyRange range;
    private final boolean full;

    /** Whether rows may still lie before the range start / the end must still be checked. */
    private boolean checkStart;

    private final boolean checkEnd;
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer scratch = ByteBuffer.allocate(12);
    private int nextPage;
    private Cols cols;
    private long remaining;
    private boolean done;
    private long rowsSeen;

    Scan(KeyRange range) {
      this.range = range;
      this.full = range.start() == null && range.end() == null;
      this.checkStart = range.start() != null && Keys.compare(info.minKey(), range.start()) < 0;
      this.checkEnd = range.end() != null && Keys.compare(info.maxKey(), range.end()) >= 0;
      if (!range.overlaps(info.minKey(), info.maxKey())) {
        done = true;
      } else {
        int p = range.start() == null ? 0 : index.firstPageWithMaxAtLeast(range.start());
        nextPage = p < 0 ? index.pageCount() : p;
      }
    }

    private boolean openNext() throws IOException {
      if (nextPage >= index.pageCount()) {
        return false;
      }
      if (index.startsPast(nextPage, range)) {
        return false;
      }
      int rg = index.rowGroupOf(nextPage);
      int to = index.firstPageOf(rg + 1);
      PageReadStore pages = readPages(nextPage, to);
      nextPage = to;
      cols = new Cols(pages, createdBy);
      remaining = pages.getRowCount();
      return true;
    }

    @Override
    public boolean next() throws IOException {
      if (done) {
        return false;
      }
      try {
        while (true) {
          if (remaining == 0 && !openNext()) {
            finish();
            return false;
          }
          key = cols.key.getBinary().getBytes();
          epoch = cols.epoch.getLong();
          delete = cols.op.getInteger() == SstFormat.OP_DELETE;
          value = cols.value.getBinary().getBytes();
          cols.consume();
          remaining--;
          if (full) {
            rowsSeen++;
            SstWriter.rowsCrc(crc, scratch, key, epoch, delete, value);
            return true;
          }
          if (checkStart) {
            if (Keys.compare(key, range.start()) < 0) {
              continue;
            }
            checkStart = false;
          }
          if (checkEnd && range.isAfter(key)) {
            done = true;
            return false;
          }
          return true;
        }
      } catch (IOException | RuntimeException e) {
        done = true;
        throw rethrow(e);
      }
    }

    private void finish() {
      done = true;
      if (full && (rowsSeen != info.rowCount() || crc.getValue() != rowsCrc)) {
        throw corrupted("row checksum mismatch after a full scan of " + rowsSeen + " rows", null);
      }
    }
  }

  /** A bounded range scan over cached 256-row blocks (see {@link #iterator}). */
  private final class BlockScan extends CurrentEntryIterator {
    private final KeyRange range;
    private int page;
    private Block block;
    private int row;
    private boolean done;

    BlockScan(KeyRange range) {
      this.range = range;
      if (!range.overlaps(info.minKey(), info.maxKey())) {
        done = true;
      } else {
        int p = range.start() == null ? 0 : index.firstPageWithMaxAtLeast(range.start());
        page = p < 0 ? index.pageCount() : p;
      }
    }

    /** Loads the next block; false past the last page or past the range's end. */
    private boolean openNext() throws IOException {
      if (page >= index.pageCount() || index.startsPast(page, range)) {
        return false;
      }
      block = block(page);
      row = range.start() == null ? 0 : block.lowerBound(range.start());
      page++;
      return true;
    }

    @Override
    public boolean next() throws IOException {
      if (done) {
        return false;
      }
      try {
        while (block == null || row >= block.size()) {
          if (!openNext()) {
            done = true;
            return false;
          }
        }
        if (range.end() != null && block.compareKey(row, range.end()) >= 0) {
          done = true;
          return false;
        }
        key = block.key(row);
        epoch = block.epoch(row);
        delete = block.isDelete(row);
        value = block.value(row);
        row++;
        return true;
      } catch (IOException | RuntimeException e) {
        done = true;
        throw rethrow(e);
      }
    }
  }

  /** Column readers need a converter tree; values are pulled, not pushed, so it does nothing. */
  private static final class NoopConverter extends GroupConverter {
    static final NoopConverter INSTANCE = new NoopConverter();
    private static final PrimitiveConverter PRIMITIVE = new PrimitiveConverter() {};

    @Override
    public Converter getConverter(int fieldIndex) {
      return PRIMITIVE;
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}

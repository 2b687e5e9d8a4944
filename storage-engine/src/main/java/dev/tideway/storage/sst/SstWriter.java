package dev.tideway.storage.sst;

import dev.tideway.common.check.Checks;
import dev.tideway.common.fault.FailPoints;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StorageException;
import dev.tideway.storage.api.TableStats;
import dev.tideway.storage.iterator.Entry;
import dev.tideway.storage.iterator.EntryIterator;
import dev.tideway.storage.objectstore.ObjectStore;
import dev.tideway.storage.objectstore.ObjectWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.zip.CRC32C;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes one SST: entries in storage order (checked on every add) to a Parquet file in the object
 * store, then {@link #finish()} commits the object and returns its {@link SstInfo}. Nothing is
 * visible in the store before {@link #finish()}; {@link #close()} without finish aborts. Confined
 * to one thread.
 */
public final class SstWriter implements AutoCloseable {
  public static final String FP_BEFORE_COMMIT = FailPoints.declare("sst.write.before-commit");

  private final long id;
  private final ObjectWriter upload;
  private final ObjectOutputFile out;
  private final ParquetWriter<Entry> parquet;
  private final SstWriteSupport support;
  private boolean finished;

  private SstWriter(long id, ObjectStore store, SstWriterOptions o, long expectedRows)
      throws IOException {
    this.id = id;
    this.upload = store.create(SstInfo.objectPath(id));
    this.out = new ObjectOutputFile(upload);
    this.support = new SstWriteSupport(o.pageRows());
    long ndv = Math.max(16, Math.min(expectedRows, o.maxBloomNdv()));
    this.parquet =
        new Builder(out, support)
            .withConf(new PlainParquetConfiguration())
            .withCodecFactory(SstCodecs.INSTANCE)
            .withCompressionCodec(o.codec())
            .withRowGroupSize(o.rowGroupBytes())
            .withPageSize(1 << 20)
            .withPageRowCountLimit(o.pageRows())
            .withDictionaryEncoding(true)
            .withDictionaryEncoding("key", false)
            .withDictionaryEncoding("value", false)
            .withBloomFilterEnabled("key", true)
            .withBloomFilterFPP("key", o.bloomFpp())
            .withBloomFilterNDV("key", ndv)
            .withPageWriteChecksumEnabled(true)
            // readers find pages through the footer's PageFences, not Parquet's column index:
            // min/max statistics compare byte by byte twice per row, and size statistics update a
            // histogram per row, for nothing
            .withStatisticsEnabled("key", false)
            .withStatisticsEnabled("value", false)
            .withSizeStatisticsEnabled(false)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            .build();
  }

  /** Starts SST {@code id}; {@code expectedRows} sizes the bloom filter. */
  public static SstWriter create(
      long id, ObjectStore store, SstWriterOptions o, long expectedRows) {
    try {
      return new SstWriter(id, store, o, expectedRows);
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot create SST " + SstInfo.objectPath(id), e);
    }
  }

  public long rowCount() {
    return support.rows;
  }

  /** Bytes written and buffered so far (an estimate of the file size). */
  public long writtenBytes() {
    return parquet.getDataSize();
  }

  public void add(byte[] key, long epoch, boolean delete, byte[] value) {
    if (finished) {
      Checks.checkState(false, "SST %s already finished", id);
    }
    if (support.rows > 0 && Entry.compare(support.lastKey, support.lastEpoch, key, epoch) >= 0) {
      // behind an if: the message hex-formats both keys
      Checks.checkState(
          false,
          "SST %s: entry %s@%s not after %s@%s",
          id,
          Keys.hex(key),
          epoch,
          Keys.hex(support.lastKey),
          support.lastEpoch);
    }
    try {
      parquet.write(new Entry(key, epoch, delete, delete ? Entry.EMPTY : value));
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot write SST " + SstInfo.objectPath(id), e);
    }
  }

  /** Adds every entry of {@code it}. */
  public void addAll(EntryIterator it) throws IOException {
    while (it.next()) {
      add(it.key(), it.epoch(), it.isDelete(), it.value());
    }
  }

  /** Completes the footer, commits the object and describes it. */
  public SstInfo finish() {
    Checks.checkState(!finished, "SST %s already finished", id);
    Checks.checkState(support.rows > 0, "SST %s is empty", id);
    finished = true;
    try {
      parquet.close();
      FailPoints.hit(FP_BEFORE_COMMIT);
      long size = upload.position();
      upload.commit();
      return new SstInfo(
          id,
          size,
          out.crc32c(),
          support.minKey,
          support.lastKey,
          support.minEpoch,
          support.maxEpoch,
          support.rows,
          support.tombstones,
          support.stats);
    } catch (IOException e) {
      throw new StorageException(
          StorageException.Reason.OBJECT_STORE, "cannot finish SST " + SstInfo.objectPath(id), e);
    } finally {
      closeQuietly();
    }
  }

  private void closeQuietly() {
    try {
      upload.close();
    } catch (IOException ignored) {
      // The upload is aborted or already committed; nothing else to release.
    }
  }

  @Override
  public void close() {
    if (!finished) {
      finished = true;
      try {
        parquet.close();
      } catch (IOException | RuntimeException ignored) {
        // Aborting: the half-written object is discarded below.
      }
      closeQuietly();
    }
  }

  private static final class Builder extends ParquetWriter.Builder<Entry, Builder> {
    private final SstWriteSupport support;

    Builder(OutputFile file, SstWriteSupport support) {
      super(file);
      this.support = support;
    }

    @Override
    protected Builder self() {
      return this;
    }

    @Override
    protected WriteSupport<Entry> getWriteSupport(org.apache.hadoop.conf.Configuration conf) {
      return support;
    }

    @Override
    protected WriteSupport<Entry> getWriteSupport(
        org.apache.parquet.conf.ParquetConfiguration conf) {
      return support;
    }
  }

  /** Writes rows and gathers the footer metadata and stats as they pass. */
  private static final class SstWriteSupport extends WriteSupport<Entry> {
    private RecordConsumer rc;
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer scratch = ByteBuffer.allocate(12);
    private final Map<Integer, TableStats> stats = new HashMap<>();
    private final PageFences.Builder fences;
    private final SegmentLasts segments = new SegmentLasts();
    private byte[] minKey;
    private byte[] lastKey;
    private long lastEpoch;
    private long minEpoch = Long.MAX_VALUE;
    private long maxEpoch = Long.MIN_VALUE;
    private long rows;
    private long tombstones;
    private int statsTable = Integer.MIN_VALUE;
    private long tCount;
    private long tKeyBytes;
    private long tValueBytes;

    SstWriteSupport(int rowsPerFence) {
      this.fences = new PageFences.Builder(rowsPerFence);
    }

    @Override
    public WriteContext init(org.apache.hadoop.conf.Configuration conf) {
      return new WriteContext(SstFormat.SCHEMA, Map.of());
    }

    @Override
    public WriteContext init(org.apache.parquet.conf.ParquetConfiguration conf) {
      return new WriteContext(SstFormat.SCHEMA, Map.of());
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
      this.rc = recordConsumer;
    }

    @Override
    public void write(Entry e) {
      rc.startMessage();
      rc.startField("key", 0);
      rc.addBinary(Binary.fromConstantByteArray(e.key()));
      rc.endField("key", 0);
      rc.startField("epoch", 1);
      rc.addLong(e.epoch());
      rc.endField("epoch", 1);
      rc.startField("op", 2);
      rc.addInteger(e.delete() ? SstFormat.OP_DELETE : SstFormat.OP_PUT);
      rc.endField("op", 2);
      rc.startField("value", 3);
      rc.addBinary(Binary.fromConstantByteArray(e.value()));
      rc.endField("value", 3);
      rc.endMessage();
      observe(e);
    }

    private void observe(Entry e) {
      if (rows == 0) {
        minKey = e.key();
      }
      lastKey = e.key();
      fences.add(lastKey);
      segments.add(lastKey);
      lastEpoch = e.epoch();
      minEpoch = Math.min(minEpoch, e.epoch());
      maxEpoch = Math.max(maxEpoch, e.epoch());
      rows++;
      if (e.delete()) {
        tombstones++;
      }
      rowsCrc(crc, scratch, e.key(), e.epoch(), e.delete(), e.value());
      int table = dev.tideway.storage.api.Keys.tableId(e.key());
      if (table != statsTable) {
        flushTableStats();
        statsTable = table;
      }
      tCount++;
      tKeyBytes += e.key().length + 8L;
      tValueBytes += e.value().length;
    }

    private void flushTableStats() {
      if (tCount > 0) {
        TableStats.addInto(stats, statsTable, new TableStats(tCount, tKeyBytes, tValueBytes, 0));
      }
      tCount = 0;
      tKeyBytes = 0;
      tValueBytes = 0;
    }

    @Override
    public FinalizedWriteContext finalizeWrite() {
      flushTableStats();
      Map<String, String> m = new TreeMap<>();
      m.put(SstFormat.META_FORMAT_VERSION, Integer.toString(SstFormat.FORMAT_VERSION));
      m.put(
          SstFormat.META_TABLE_IDS,
          new java.util.TreeSet<>(stats.keySet())
              .stream().map(String::valueOf).collect(Collectors.joining(",")));
      m.put(SstFormat.META_MIN_KEY, Keys.hex(minKey));
      m.put(SstFormat.META_MAX_KEY, Keys.hex(lastKey));
      m.put(SstFormat.META_MIN_EPOCH, Long.toString(minEpoch));
      m.put(SstFormat.META_MAX_EPOCH, Long.toString(maxEpoch));
      m.put(SstFormat.META_ROW_COUNT, Long.toString(rows));
      m.put(SstFormat.META_TOMBSTONES, Long.toString(tombstones));
      m.put(SstFormat.META_ROWS_CRC32C, Long.toString(crc.getValue()));
      m.put(SstFormat.META_PAGE_FENCE_ROWS, Integer.toString(fences.rowsPerFence()));
      m.put(SstFormat.META_PAGE_FENCES, fences.finish());
      String lasts = segments.finish();
      if (lasts != null) {
        m.put(SstFormat.META_SEGMENT_LASTS, lasts);
      }
      return new FinalizedWriteContext(m);
    }
  }

  /** The footer's row checksum: CRC32C over key, epoch, op, value of each row in order. */
  static void rowsCrc(
      CRC32C crc, ByteBuffer scratch, byte[] key, long epoch, boolean delete, byte[] value) {
    crc.update(key);
    scratch.clear();
    scratch.putLong(epoch).putInt(delete ? 1 : 0);
    crc.update(scratch.array(), 0, 12);
    crc.update(value);
  }
}

package dev.tideway.storage.bench;

import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.config.TidewayConfig;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.Clock;
import dev.tideway.storage.api.Epochs;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.Keys;
import dev.tideway.storage.api.LocalStateStore;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.StorageOptions;
import dev.tideway.storage.api.SyncResult;
import dev.tideway.storage.engine.StorageEngine;
import dev.tideway.storage.objectstore.LocalFsObjectStore;
import dev.tideway.storage.objectstore.ObjectStore;
import dev.tideway.storage.objectstore.S3ObjectStore;
import dev.tideway.storage.objectstore.S3Settings;
import dev.tideway.storage.sst.SstCodecs;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.MessageType;

/**
 * {@code tideway bench storage [--rows N] [--gets N] [--store s3://BUCKET/PREFIX]}: N rows of
 * 16-byte keys and 100-byte values through the engine (memtable → seal → sync to a Parquet SST →
 * commit → scan, gets, compaction) against parquet-java writing and reading the same rows to and
 * from a plain file in the same run. Raw write = the example {@code Group} writer with parquet
 * defaults and ZSTD; raw scan = parquet's column readers over that file (the fastest raw read
 * path). The engine's SSTs go to local files, or with {@code --store} to S3 (settings from {@code
 * tideway.storage.s3.*} and their environment twins), while the raw baseline stays on local files.
 * Run with a fixed heap and {@code -XX:+AlwaysPreTouch}.
 */
public final class StorageBench implements Benchmark {
  private static final int TABLE = 1;

  @Override
  public String name() {
    return "storage";
  }

  @Override
  public String description() {
    return "state store sync/scan/get/compaction vs raw parquet-java (--rows N, default 1000000;"
        + " --store s3://BUCKET/PREFIX puts the engine's files on S3)";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("rows", "gets", "dir", "store");
    int rows = (int) options.getLong("rows", 1_000_000);
    int gets = (int) options.getLong("gets", 200_000);
    Path dir = null;
    try {
      dir =
          options.values().containsKey("dir")
              ? Files.createDirectories(Path.of(options.values().get("dir")))
              : Files.createTempDirectory("tideway-bench-storage");
      new Run(rows, gets, dir, options.values().get("store"), out).go();
    } catch (Exception e) {
      throw new IllegalStateException("storage benchmark failed: " + e, e);
    } finally {
      if (dir != null) {
        deleteTree(dir);
      }
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One benchmark run; fields hold the generated rows. */
  private static final class Run {
    private final int rows;
    private final int gets;
    private final Path dir;
    private final String storeUrl;
    private final PrintWriter out;
    private final Clock clock = Clock.system();
    private final byte[][] keys;
    private final byte[][] values;

    Run(int rows, int gets, Path dir, String storeUrl, PrintWriter out) {
      this.rows = rows;
      this.gets = gets;
      this.dir = dir;
      this.storeUrl = storeUrl;
      this.out = out;
      RandomSource rnd = RandomSource.seeded(20210401);
      keys = new byte[rows][];
      values = new byte[rows][];
      long pk = 0;
      byte[] text = "the quick brown fox jumps over the lazy dog; ".repeat(3).getBytes();
      for (int i = 0; i < rows; i++) {
        pk += 1 + rnd.nextInt(16);
        ByteBuffer pkBytes =
            ByteBuffer.allocate(10).put((byte) 1).putLong(pk ^ Long.MIN_VALUE).put((byte) 0);
        keys[i] = Keys.key(TABLE, 0, pkBytes.array());
        byte[] v = new byte[100];
        rnd.nextBytes(v);
        System.arraycopy(text, i % 20, v, 50, 50);
        values[i] = v;
      }
    }

    private void print(String key, Object value) {
      out.println(key + "=" + value);
      out.flush();
    }

    private double rate(long n, long nanos) {
      return n / (nanos / 1e9);
    }

    void go() throws Exception {
      print("rows", rows);
      print("store", storeUrl == null ? "file" : storeUrl);
      StorageOptions o =
          StorageOptions.defaults()
              .withMemory(3L << 30, 3L << 30)
              .withCompaction(false, 4, 256L << 20, 256L << 20)
              .withBlockCache(512L << 20, true);
      warmUp(o);
      // Raw and engine runs alternate so that load from other processes hits both alike.
      double[] rawW = new double[3];
      double[] syncW = new double[3];
      for (int i = 0; i < 3; i++) {
        rawW[i] = rawWrite();
        syncW[i] = syncRound(o, "round" + i);
      }
      double raw = median(rawW);
      double sync = median(syncW);
      print("raw_parquet_write_rows_per_s", Math.round(raw));
      print("sync_rows_per_s", Math.round(sync));
      print("write_ratio", String.format("%.2f", sync / raw));
      try (StorageEngine engine = StorageEngine.open(storeAt("store"), o)) {
        LocalStateStore local = engine.newLocal(TABLE);
        local.init(Epochs.of(1));
        long t0 = clock.nanoTime();
        for (int i = 0; i < rows; i++) {
          local.insert(keys[i], values[i]);
        }
        print("memtable_insert_rows_per_s", Math.round(rate(rows, clock.nanoTime() - t0)));
        local.sealCurrentEpoch(Epochs.of(2));
        SyncResult r = engine.sync(Epochs.of(1)).get();
        engine.commitEpoch(Epochs.of(1), r.ssts(), r.statsDelta());
        print("sst_bytes", r.ssts().stream().mapToLong(s -> s.fileSize()).sum());
        double[] rawS = new double[3];
        double[] engS = new double[3];
        for (int i = 0; i < 3; i++) {
          rawS[i] = rawScan();
          engS[i] = engineScan(engine);
        }
        double rawScan = median(rawS);
        double scan = median(engS);
        print("raw_parquet_scan_rows_per_s", Math.round(rawScan));
        print("scan_rows_per_s", Math.round(scan));
        print("scan_ratio", String.format("%.2f", scan / rawScan));
        long[] lat = getLatencies(engine);
        double p99 = lat[(int) (lat.length * 0.99)] / 1e3;
        print("get_p50_us", String.format("%.1f", lat[lat.length / 2] / 1e3));
        print("get_p99_us", String.format("%.1f", p99));
        print("get_max_us", String.format("%.1f", lat[lat.length - 1] / 1e3));
        print("compaction_rows_per_s", Math.round(compaction(engine, local)));
        out.println(
            String.format(
                "summary: write_ratio=%.2f (target >= 0.5) scan_ratio=%.2f (target >= 0.5)"
                    + " get_p99_us=%.1f (target < 1000)",
                sync / raw, scan / rawScan, p99));
        out.flush();
      } finally {
        deleteStore("store");
      }
    }

    private static double median(double[] xs) {
      double[] c = xs.clone();
      Arrays.sort(c);
      return c[c.length / 2];
    }

    /** The engine's object store {@code sub}: a directory under the run's, or a prefix on S3. */
    private ObjectStore storeAt(String sub) throws IOException {
      return storeUrl == null
          ? new LocalFsObjectStore(dir.resolve(sub))
          : S3ObjectStore.open(
              storeUrl.replaceAll("/+$", "") + "/" + sub,
              S3Settings.from(TidewayConfig.ofProcess()));
    }

    /** Deletes what {@link #storeAt} holds under {@code sub}. */
    private void deleteStore(String sub) throws IOException {
      try (ObjectStore s = storeAt(sub)) {
        for (String p : s.list("")) {
          s.delete(p);
        }
      }
    }

    /** One measured sync of all rows into a fresh engine (fsync or upload included). */
    private double syncRound(StorageOptions o, String where) throws Exception {
      try (StorageEngine e = StorageEngine.open(storeAt(where), o)) {
        LocalStateStore l = e.newLocal(TABLE);
        l.init(Epochs.of(1));
        for (int i = 0; i < rows; i++) {
          l.insert(keys[i], values[i]);
        }
        l.sealCurrentEpoch(Epochs.of(2));
        long t0 = clock.nanoTime();
        SyncResult r = e.sync(Epochs.of(1)).get();
        double rate = rate(rows, clock.nanoTime() - t0);
        e.commitEpoch(Epochs.of(1), r.ssts(), r.statsDelta());
        return rate;
      } finally {
        deleteStore(where);
      }
    }

    /** Runs the write path twice on a throwaway in-memory engine so the measured run is warm. */
    private void warmUp(StorageOptions o) throws Exception {
      for (int round = 0; round < 2; round++) {
        try (StorageEngine warm =
            StorageEngine.open(new dev.tideway.storage.objectstore.InMemoryObjectStore(), o)) {
          LocalStateStore l = warm.newLocal(TABLE);
          l.init(Epochs.of(1));
          for (int i = 0; i < rows; i++) {
            l.insert(keys[i], values[i]);
          }
          l.sealCurrentEpoch(Epochs.of(2));
          SyncResult r = warm.sync(Epochs.of(1)).get();
          warm.commitEpoch(Epochs.of(1), r.ssts(), r.statsDelta());
          engineScan(warm);
        }
      }
    }

    private static final MessageType SCHEMA = dev.tideway.storage.sst.SstFormat.SCHEMA;

    private double rawWrite() throws IOException {
      Path p = dir.resolve("raw.parquet");
      Files.deleteIfExists(p);
      SimpleGroupFactory f = new SimpleGroupFactory(SCHEMA);
      long t0 = clock.nanoTime();
      try (ParquetWriter<Group> w =
          ExampleParquetWriter.builder(new LocalOutputFile(p))
              .withConf(new PlainParquetConfiguration())
              .withType(SCHEMA)
              .withCodecFactory(SstCodecs.INSTANCE)
              .withCompressionCodec(CompressionCodecName.ZSTD)
              .build()) {
        for (int i = 0; i < rows; i++) {
          Group g = f.newGroup();
          g.add(0, Binary.fromConstantByteArray(keys[i]));
          g.add(1, (long) Epochs.of(1));
          g.add(2, 0);
          g.add(3, Binary.fromConstantByteArray(values[i]));
          w.write(g);
        }
      }
      return rate(rows, clock.nanoTime() - t0);
    }

    private double rawScan() throws IOException {
      Path p = dir.resolve("raw.parquet");
      long t0 = clock.nanoTime();
      long n = 0;
      long sink = 0;
      ParquetReadOptions ro =
          ParquetReadOptions.builder(new PlainParquetConfiguration())
              .withCodecFactory(SstCodecs.INSTANCE)
              .build();
      try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(p), ro)) {
        PageReadStore pages;
        while ((pages = r.readNextRowGroup()) != null) {
          ColumnReadStoreImpl cs =
              new ColumnReadStoreImpl(
                  pages, new Noop(), SCHEMA, r.getFileMetaData().getCreatedBy());
          ColumnReader k = cs.getColumnReader(SCHEMA.getColumns().get(0));
          ColumnReader e = cs.getColumnReader(SCHEMA.getColumns().get(1));
          ColumnReader o = cs.getColumnReader(SCHEMA.getColumns().get(2));
          ColumnReader v = cs.getColumnReader(SCHEMA.getColumns().get(3));
          for (long i = 0; i < pages.getRowCount(); i++) {
            sink += k.getBinary().length() + e.getLong() + o.getInteger() + v.getBinary().length();
            k.consume();
            e.consume();
            o.consume();
            v.consume();
            n++;
          }
        }
      }
      if (n != rows || sink == 42) {
        throw new IllegalStateException("raw scan read " + n + " rows");
      }
      return rate(n, clock.nanoTime() - t0);
    }

    private double engineScan(StorageEngine engine) {
      long t0 = clock.nanoTime();
      long n = 0;
      try (StateIterator it = engine.iter(KeyRange.table(TABLE), engine.committedEpoch())) {
        while (it.next()) {
          n++;
        }
      }
      if (n != rows) {
        throw new IllegalStateException("engine scan read " + n + " rows, expected " + rows);
      }
      return rate(n, clock.nanoTime() - t0);
    }

    private long[] getLatencies(StorageEngine engine) {
      RandomSource rnd = RandomSource.seeded(7);
      long epoch = engine.committedEpoch();
      for (int i = 0; i < gets; i++) {
        engine.get(keys[rnd.nextInt(rows)], epoch);
      }
      long[] lat = new long[gets];
      for (int i = 0; i < gets; i++) {
        int k = rnd.nextInt(rows);
        long t0 = clock.nanoTime();
        byte[] v = engine.get(keys[k], epoch);
        lat[i] = clock.nanoTime() - t0;
        if (v == null || v.length != 100) {
          throw new IllegalStateException("get of row " + k + " returned " + Arrays.toString(v));
        }
      }
      Arrays.sort(lat);
      return lat;
    }

    /** Updates 10% of the rows in epoch 2, then compacts both SSTs into one. */
    private double compaction(StorageEngine engine, LocalStateStore local) throws Exception {
      for (int i = 0; i < rows; i += 10) {
        local.update(keys[i], values[i], values[(i + 1) % rows]);
      }
      local.sealCurrentEpoch(Epochs.of(3));
      SyncResult r = engine.sync(Epochs.of(2)).get();
      engine.commitEpoch(Epochs.of(2), r.ssts(), r.statsDelta());
      long inputRows = engine.version().allSsts().stream().mapToLong(s -> s.rowCount()).sum();
      long t0 = clock.nanoTime();
      engine.compactNow(true);
      return rate(inputRows, clock.nanoTime() - t0);
    }
  }

  /** Column readers need a converter tree; values are pulled, so it does nothing. */
  private static final class Noop extends GroupConverter {
    @Override
    public Converter getConverter(int fieldIndex) {
      return new PrimitiveConverter() {};
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }
}

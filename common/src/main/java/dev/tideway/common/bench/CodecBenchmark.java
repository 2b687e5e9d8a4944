package dev.tideway.common.bench;

import dev.tideway.common.chunk.ColumnBuilder;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.key.KeySerde;
import dev.tideway.common.key.OrderType;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.row.GrowableBytes;
import dev.tideway.common.row.Row;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.DataType;
import dev.tideway.common.value.ValueSerde;
import dev.tideway.common.vnode.VnodeHasher;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * {@code tideway bench codec}: the per-row cost of the codecs on the hot path, over rows of {@code
 * (BIGINT, VARCHAR ~16 chars, DOUBLE)} in chunks of 1024: building chunks with typed appends,
 * memcomparable key encoding (from chunk columns and from {@link Row}s) and decoding, value
 * encoding and decoding, and vnode hashing. Each phase is warmed up, then timed {@code --rounds}
 * times over all rows; the best round is reported (the least disturbed by other load).
 *
 * <p>Single-threaded; one instance per run.
 */
public final class CodecBenchmark implements Benchmark {
  private static final int CHUNK_ROWS = 1024;
  private static final List<DataType> TYPES =
      List.of(DataType.BIGINT, DataType.VARCHAR, DataType.DOUBLE);
  private static final int[] KEY_COLUMNS = {0, 1, 2};
  private static final int[] DIST_KEY = {0};

  private final Clock clock;

  /** Receives each pass's checksum so the JIT cannot drop the work. */
  private volatile long blackhole;

  public CodecBenchmark() {
    this(Clock.system());
  }

  CodecBenchmark(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String name() {
    return "codec";
  }

  @Override
  public String description() {
    return "key/value encoding, vnode hashing and chunk building, ns per row";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("rows", "rounds", "seed");
    int rows = Math.toIntExact(options.getLong("rows", 1_000_000));
    int rounds = Math.toIntExact(options.getLong("rounds", 3));
    long seed = options.getLong("seed", 42);
    Data data = Data.generate(rows, RandomSource.seeded(seed));
    Phases p = new Phases(data);
    out.printf(
        "rows=%d%nschema=%s%nkey_orders=%s%nrounds=%d%n", rows, TYPES, p.keys.orders(), rounds);
    out.flush();
    List<Figure> figures = new ArrayList<>();
    figures.add(measure("chunk_build", rows, rounds, p::buildChunks));
    figures.add(measure("key_encode", rows, rounds, p::encodeKeysFromChunks));
    figures.add(measure("key_encode_from_row", rows, rounds, p::encodeKeysFromRows));
    p.storeKeysAndValues();
    figures.add(measure("key_decode", rows, rounds, p::decodeKeys));
    figures.add(measure("value_encode", rows, rounds, p::encodeValuesFromChunks));
    figures.add(measure("value_decode", rows, rounds, p::decodeValues));
    figures.add(measure("vnode", rows, rounds, p::vnodes));
    StringBuilder summary = new StringBuilder("summary=codec rows=" + rows + " ns/row (cpu):");
    for (Figure f : figures) {
      out.println(f.name() + "_ns_per_row=" + fmt(f.wallNsPerRow()));
      out.println(f.name() + "_cpu_ns_per_row=" + fmt(f.cpuNsPerRow()));
      summary.append(' ').append(f.name()).append('=').append(fmt(f.wallNsPerRow()));
      summary.append(" (").append(fmt(f.cpuNsPerRow())).append(')');
    }
    out.println("key_bytes_per_row=" + fmt((double) p.keyBytes / rows));
    out.println("value_bytes_per_row=" + fmt((double) p.valueBytes / rows));
    out.println(summary);
    out.flush();
  }

  /** One figure: the best wall-clock and the best thread-CPU time of the timed passes. */
  private record Figure(String name, double wallNsPerRow, double cpuNsPerRow) {}

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /**
   * One warm-up pass, then the best of {@code rounds} timed passes. Thread CPU time is reported
   * beside wall time because on a shared machine wall time mostly measures the other tenants.
   */
  private Figure measure(String name, int rows, int rounds, LongSupplier pass) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long sink = pass.getAsLong();
    long bestWall = Long.MAX_VALUE;
    long bestCpu = Long.MAX_VALUE;
    for (int r = 0; r < rounds; r++) {
      long cpu = threads.getCurrentThreadCpuTime();
      long start = clock.nanoTime();
      sink += pass.getAsLong();
      bestWall = Math.min(bestWall, clock.nanoTime() - start);
      bestCpu = Math.min(bestCpu, threads.getCurrentThreadCpuTime() - cpu);
    }
    blackhole = sink;
    return new Figure(name, (double) bestWall / rows, (double) bestCpu / rows);
  }

  /** The generated columns. */
  private record Data(int rows, long[] ids, String[] names, double[] scores) {
    static Data generate(int rows, RandomSource random) {
      long[] ids = new long[rows];
      String[] names = new String[rows];
      double[] scores = new double[rows];
      char[] buf = new char[24];
      for (int i = 0; i < rows; i++) {
        ids[i] = random.nextLong(0, 1L << 40);
        int len = 12 + random.nextInt(9); // 12..20, ~16 on average
        for (int c = 0; c < len; c++) {
          buf[c] = (char) ('a' + random.nextInt(26));
        }
        names[i] = new String(buf, 0, len);
        scores[i] = random.nextDouble() * 1e6 - 5e5;
      }
      return new Data(rows, ids, names, scores);
    }
  }

  /** The timed passes; each returns a checksum so its work stays observable. */
  private static final class Phases {
    final Data data;
    final KeySerde keys =
        new KeySerde(TYPES, List.of(OrderType.ASC, OrderType.ASC, OrderType.DESC));
    final ValueSerde values = new ValueSerde(TYPES);
    final VnodeHasher hasher = new VnodeHasher(TYPES, DIST_KEY);
    final GrowableBytes buffer = new GrowableBytes(256);
    final int[] vnodeOut = new int[CHUNK_ROWS];
    List<StreamChunk> chunks;
    List<Row> rowList;
    byte[][] encodedKeys;
    byte[][] encodedValues;
    long keyBytes;
    long valueBytes;

    Phases(Data data) {
      this.data = data;
      buildChunks();
      rowList = new ArrayList<>(data.rows());
      for (int i = 0; i < data.rows(); i++) {
        rowList.add(Row.of(data.ids()[i], data.names()[i], data.scores()[i]));
      }
    }

    long buildChunks() {
      List<StreamChunk> out = new ArrayList<>(data.rows() / CHUNK_ROWS + 1);
      long sum = 0;
      for (int from = 0; from < data.rows(); from += CHUNK_ROWS) {
        int to = Math.min(from + CHUNK_ROWS, data.rows());
        StreamChunkBuilder b = new StreamChunkBuilder(TYPES, to - from);
        ColumnBuilder ids = b.column(0);
        ColumnBuilder names = b.column(1);
        ColumnBuilder scores = b.column(2);
        for (int i = from; i < to; i++) {
          ids.appendLong(data.ids()[i]);
          names.append(data.names()[i]);
          scores.appendDouble(data.scores()[i]);
          b.appendOp(Op.INSERT);
        }
        StreamChunk chunk = b.build();
        sum += chunk.size();
        out.add(chunk);
      }
      chunks = out;
      return sum;
    }

    long encodeKeysFromChunks() {
      long sum = 0;
      for (StreamChunk chunk : chunks) {
        for (int i = 0; i < chunk.size(); i++) {
          buffer.reset();
          keys.encodeTo(buffer, chunk, i, KEY_COLUMNS);
          sum += buffer.size();
        }
      }
      return sum;
    }

    long encodeKeysFromRows() {
      long sum = 0;
      for (Row row : rowList) {
        buffer.reset();
        keys.encodeTo(buffer, row);
        sum += buffer.size();
      }
      return sum;
    }

    void storeKeysAndValues() {
      encodedKeys = new byte[data.rows()][];
      encodedValues = new byte[data.rows()][];
      int r = 0;
      for (StreamChunk chunk : chunks) {
        for (int i = 0; i < chunk.size(); i++, r++) {
          buffer.reset();
          keys.encodeTo(buffer, chunk, i, KEY_COLUMNS);
          encodedKeys[r] = buffer.toByteArray();
          keyBytes += buffer.size();
          buffer.reset();
          values.encodeTo(buffer, chunk, i);
          encodedValues[r] = buffer.toByteArray();
          valueBytes += buffer.size();
        }
      }
    }

    long decodeKeys() {
      long sum = 0;
      for (byte[] k : encodedKeys) {
        sum += keys.decode(k).size();
      }
      return sum;
    }

    long encodeValuesFromChunks() {
      long sum = 0;
      for (StreamChunk chunk : chunks) {
        for (int i = 0; i < chunk.size(); i++) {
          buffer.reset();
          values.encodeTo(buffer, chunk, i);
          sum += buffer.size();
        }
      }
      return sum;
    }

    long decodeValues() {
      long sum = 0;
      for (byte[] v : encodedValues) {
        sum += values.decode(v).size();
      }
      return sum;
    }

    long vnodes() {
      long sum = 0;
      for (StreamChunk chunk : chunks) {
        hasher.vnodes(chunk, vnodeOut);
        sum += vnodeOut[0];
      }
      return sum;
    }
  }
}

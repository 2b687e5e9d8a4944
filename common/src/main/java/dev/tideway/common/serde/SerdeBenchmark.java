package dev.tideway.common.serde;

import dev.tideway.common.bench.Benchmark;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.random.RandomSource;
import dev.tideway.common.time.Clock;
import dev.tideway.common.types.DataType;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * {@code tideway bench serde}: encodes and decodes stream chunks through {@link TidewayKryo} (the
 * path every remote exchange message takes) and reports throughput. Options: {@code --rows}
 * (default 1024), {@code --columns} of bigint (default 4), {@code --chunks} per timed pass (default
 * 20000), {@code --seed}.
 */
public final class SerdeBenchmark implements Benchmark {
  @Override
  public String name() {
    return "serde";
  }

  @Override
  public String description() {
    return "Kryo encode/decode throughput of stream chunks (MB/s, chunks/s)";
  }

  @Override
  public void run(Options options, PrintWriter out) {
    options.checkOnly("rows", "columns", "chunks", "seed");
    int rows = (int) options.getLong("rows", 1024);
    int columns = (int) options.getLong("columns", 4);
    int chunks = (int) options.getLong("chunks", 20_000);
    RandomSource random = RandomSource.seeded(options.getLong("seed", 42));
    StreamChunk chunk = chunk(random, rows, columns);
    TidewayKryo kryo = TidewayKryo.create();
    Clock clock = Clock.system();

    byte[] bytes = kryo.serialize(chunk);
    long payload = (long) rows * columns * 8;
    time(clock, kryo, chunk, bytes, chunks / 4); // warm-up pass, not reported
    long[] nanos = time(clock, kryo, chunk, bytes, chunks);
    double mb = (double) bytes.length * chunks / 1e6;
    double encodeMbPerS = mb / (nanos[0] / 1e9);
    double decodeMbPerS = mb / (nanos[1] / 1e9);
    out.printf("rows_per_chunk=%d%n", rows);
    out.printf("bigint_columns=%d%n", columns);
    out.printf("bytes_per_chunk=%d%n", bytes.length);
    out.printf("overhead_bytes_per_chunk=%d%n", bytes.length - payload);
    out.printf("encode_chunks_per_s=%.0f%n", chunks / (nanos[0] / 1e9));
    out.printf("encode_mb_per_s=%.1f%n", encodeMbPerS);
    out.printf("encode_us_per_chunk=%.2f%n", nanos[0] / 1e3 / chunks);
    out.printf("decode_chunks_per_s=%.0f%n", chunks / (nanos[1] / 1e9));
    out.printf("decode_mb_per_s=%.1f%n", decodeMbPerS);
    out.printf("decode_us_per_chunk=%.2f%n", nanos[1] / 1e3 / chunks);
    long[] direct = timeDirect(clock, kryo, chunk, bytes.length, chunks);
    double directEncode = mb / (direct[0] / 1e9);
    double directDecode = mb / (direct[1] / 1e9);
    out.printf("direct_buffer_encode_mb_per_s=%.1f%n", directEncode);
    out.printf("direct_buffer_encode_us_per_chunk=%.2f%n", direct[0] / 1e3 / chunks);
    out.printf("direct_buffer_decode_mb_per_s=%.1f%n", directDecode);
    out.printf("direct_buffer_decode_us_per_chunk=%.2f%n", direct[1] / 1e3 / chunks);
    out.printf(
        "summary: %d-row x %d-bigint chunk, %d bytes: byte[] encode %.0f MB/s, decode %.0f MB/s;"
            + " direct buffer encode %.0f MB/s, decode %.0f MB/s%n",
        rows, columns, bytes.length, encodeMbPerS, decodeMbPerS, directEncode, directDecode);
    out.flush();
  }

  /** Encode and decode nanoseconds for {@code n} chunks; checks the decoded chunk once. */
  private static long[] time(
      Clock clock, TidewayKryo kryo, StreamChunk chunk, byte[] bytes, int n) {
    long t0 = clock.nanoTime();
    long sink = 0;
    for (int i = 0; i < n; i++) {
      sink += kryo.serialize(chunk).length;
    }
    long t1 = clock.nanoTime();
    StreamChunk last = null;
    for (int i = 0; i < n; i++) {
      last = kryo.deserialize(bytes, StreamChunk.class);
    }
    long t2 = clock.nanoTime();
    if (sink != (long) bytes.length * n || (last != null && !last.equals(chunk))) {
      throw new IllegalStateException("round trip changed the chunk");
    }
    return new long[] {t1 - t0, t2 - t1};
  }

  /** The Artery path: encode into and decode from one reused direct buffer. */
  private static long[] timeDirect(
      Clock clock, TidewayKryo kryo, StreamChunk chunk, int size, int n) {
    ByteBuffer buf = ByteBuffer.allocateDirect(size + 1024);
    for (int i = 0; i < n / 4; i++) { // warm-up
      buf.clear();
      kryo.serialize(chunk, buf);
      buf.flip();
      kryo.deserialize(buf, StreamChunk.class);
    }
    long t0 = clock.nanoTime();
    for (int i = 0; i < n; i++) {
      buf.clear();
      kryo.serialize(chunk, buf);
    }
    long t1 = clock.nanoTime();
    StreamChunk last = null;
    for (int i = 0; i < n; i++) {
      buf.flip().position(0);
      last = kryo.deserialize(buf, StreamChunk.class);
    }
    long t2 = clock.nanoTime();
    if (last == null || !last.equals(chunk)) {
      throw new IllegalStateException("direct-buffer round trip changed the chunk");
    }
    return new long[] {t1 - t0, t2 - t1};
  }

  private static StreamChunk chunk(RandomSource random, int rows, int columns) {
    List<DataType> types = new ArrayList<>(Collections.nCopies(columns, DataType.BIGINT));
    StreamChunkBuilder b = new StreamChunkBuilder(types, rows);
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < columns; c++) {
        b.column(c).appendLong(random.nextLong());
      }
      b.appendOp(Op.INSERT);
    }
    return b.build();
  }
}

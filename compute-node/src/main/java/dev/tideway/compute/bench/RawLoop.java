package dev.tideway.compute.bench;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.LongVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.time.Clock;
import dev.tideway.compute.executor.source.NexmarkConfig;
import dev.tideway.compute.executor.source.NexmarkSplitReader;
import dev.tideway.compute.executor.source.SplitReader;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Set;

/**
 * The baseline: one thread reads every split of the same generator configuration (so the same
 * events, generated the same way into chunks) and does the query's work by hand over the primitive
 * columns, with no executors, barriers or state store. q0 and q1 fold the projected values into a
 * blackhole; q2 keeps the distinct (auction, price) pairs in a {@link HashSet}.
 *
 * <p>Confined to the calling thread.
 */
final class RawLoop {
  /** Wall time of the loop, rows it emitted, and a checksum that keeps the work alive. */
  record Result(long elapsedNanos, long outputRows, long checksum) {}

  private record Pair(long auction, long price) {}

  private final NexmarkQuery query;
  private final Object[] blackhole = new Object[1024];
  private final Set<Pair> view = new HashSet<>();
  private long checksum;
  private long outputRows;

  RawLoop(NexmarkQuery query) {
    this.query = query;
  }

  /** Runs the query over every event {@code config} describes. */
  Result run(NexmarkConfig config, Clock clock) {
    long start = clock.nanoTime();
    for (SplitReader r : NexmarkSplitReader.allSplits(config)) {
      long offset = 0;
      while (!r.isExhausted(offset)) {
        SplitReader.Batch b = r.read(offset, config.maxChunkSize());
        offset = b.nextOffset();
        process(b.chunk());
      }
    }
    long rows = query == NexmarkQuery.Q2 ? view.size() : outputRows;
    return new Result(clock.nanoTime() - start, rows, checksum + blackhole.length);
  }

  private void process(StreamChunk c) {
    LongVector auction = (LongVector) c.column(0);
    LongVector bidder = (LongVector) c.column(1);
    LongVector price = (LongVector) c.column(2);
    LongVector time = (LongVector) c.column(5);
    ColumnVector extra = c.column(6);
    int n = c.size();
    for (int i = 0; i < n; i++) {
      switch (query) {
        case Q0 -> {
          checksum += auction.getLong(i) ^ bidder.getLong(i) ^ price.getLong(i) ^ time.getLong(i);
          blackhole[i & 1023] = extra.get(i);
          outputRows++;
        }
        case Q1 -> {
          BigDecimal euro = NexmarkQuery.RATE.multiply(BigDecimal.valueOf(price.getLong(i)));
          checksum += auction.getLong(i) ^ bidder.getLong(i) ^ time.getLong(i);
          blackhole[i & 1023] = euro;
          blackhole[(i + 512) & 1023] = extra.get(i);
          outputRows++;
        }
        case Q2 -> {
          long a = auction.getLong(i);
          if (a % NexmarkQuery.Q2_MOD == 0) {
            view.add(new Pair(a, price.getLong(i)));
          }
        }
      }
    }
  }
}

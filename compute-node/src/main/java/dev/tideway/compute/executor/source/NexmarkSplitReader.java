package dev.tideway.compute.executor.source;

import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.types.Schema;
import dev.tideway.compute.executor.source.NexmarkConfig.TableType;
import java.util.ArrayList;
import java.util.List;

/**
 * One split of a {@code nexmark} table. Split {@code k} of {@code N} owns event numbers {@code k, k
 * + N, k + 2N, ...}; its offset {@code o} is event {@code k + o·N}, so offsets count the split's
 * events of every kind and a table reader skips the events of other kinds (a bid table emits 46 of
 * each 50). With {@code nexmark.event.num} set, the split ends at the last owned event below it.
 *
 * <p>Confined to the source actor's thread (its generator caches URLs).
 */
public final class NexmarkSplitReader implements SplitReader {
  private final NexmarkConfig config;
  private final NexmarkGenerator generator;
  private final Schema schema;
  private final int splitIndex;

  public NexmarkSplitReader(NexmarkConfig config, int splitIndex) {
    this.config = config;
    this.generator = new NexmarkGenerator(config);
    this.schema = NexmarkGenerator.schema(config.tableType());
    this.splitIndex = splitIndex;
  }

  /** The readers of every split of {@code config}. */
  public static List<SplitReader> allSplits(NexmarkConfig config) {
    List<SplitReader> out = new ArrayList<>();
    for (int k = 0; k < config.splitNum(); k++) {
      out.add(new NexmarkSplitReader(config, k));
    }
    return out;
  }

  /** The event number at {@code offset} of this split. */
  public long eventNumber(long offset) {
    return splitIndex + offset * config.splitNum();
  }

  @Override
  public String splitId() {
    return "nexmark-"
        + config.tableType().name().toLowerCase()
        + "-"
        + splitIndex
        + "-of-"
        + config.splitNum();
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public boolean isExhausted(long offset) {
    return config.eventNum() >= 0 && eventNumber(offset) >= config.eventNum();
  }

  @Override
  public Batch read(long offset, int maxRows) {
    int rows = Math.min(maxRows, config.maxChunkSize());
    StreamChunkBuilder b = new StreamChunkBuilder(schema.types(), rows);
    TableType want = config.tableType();
    long o = offset;
    // bounded scan: a full chunk of the rarest kind (person, 1 in 50) needs 50x the events
    long scanLimit = offset + (long) rows * NexmarkGenerator.TOTAL_PROPORTION;
    while (b.size() < rows && o < scanLimit && !isExhausted(o)) {
      long n = eventNumber(o);
      if (NexmarkGenerator.kindOf(n) == want) {
        generator.append(n, b);
      }
      o++;
    }
    return new Batch(b.build(), o);
  }
}

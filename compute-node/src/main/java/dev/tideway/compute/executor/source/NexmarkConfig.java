package dev.tideway.compute.executor.source;

import dev.tideway.common.check.Checks;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code nexmark} connector's options ({@code WITH (...)}), with nexmark-flink's generator
 * defaults:
 *
 * <pre>
 * nexmark.table.type       Person | Auction | Bid          (required)
 * nexmark.event.num        total events over all splits, -1 = unbounded (default)
 * nexmark.split.num        splits (default 1)
 * nexmark.seed             mixed into every event's randomness (default 0)
 * nexmark.base.time        event time of event 0, Unix ms (default 2015-07-15T00:00:00Z)
 * nexmark.first.event.rate events per second of event time (default 10,000,000)
 * nexmark.max.chunk.size   rows per chunk (default 1024)
 * </pre>
 *
 * @param tableType which events become rows
 * @param eventNum total events, or -1 for unbounded
 * @param splitNum number of splits
 * @param seed seed mixed into each event's randomness
 * @param baseTimeMs event time of event 0
 * @param firstEventRate events per second of event time
 * @param maxChunkSize rows per chunk at most
 */
public record NexmarkConfig(
    TableType tableType,
    long eventNum,
    int splitNum,
    long seed,
    long baseTimeMs,
    long firstEventRate,
    int maxChunkSize) {
  /** 2015-07-15T00:00:00Z, as nexmark-flink's example runs. */
  public static final long DEFAULT_BASE_TIME_MS = 1_436_918_400_000L;

  /** The three Nexmark tables. */
  public enum TableType {
    PERSON,
    AUCTION,
    BID
  }

  public NexmarkConfig {
    Checks.checkNotNull(tableType, "nexmark.table.type");
    Checks.checkArgument(eventNum >= -1, "nexmark.event.num must be >= -1, got %s", eventNum);
    Checks.checkArgument(splitNum > 0, "nexmark.split.num must be > 0, got %s", splitNum);
    Checks.checkArgument(
        firstEventRate > 0, "nexmark.first.event.rate must be > 0, got %s", firstEventRate);
    Checks.checkArgument(
        maxChunkSize > 0, "nexmark.max.chunk.size must be > 0, got %s", maxChunkSize);
  }

  /** Parses the options; fails naming the option for a bad value. */
  public static NexmarkConfig parse(Map<String, String> o) {
    String type = o.get("nexmark.table.type");
    Checks.checkArgument(type != null, "nexmark.table.type is required (Person, Auction or Bid)");
    TableType t;
    try {
      t = TableType.valueOf(type.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "nexmark.table.type must be Person, Auction or Bid, got '" + type + "'", e);
    }
    return new NexmarkConfig(
        t,
        Long.parseLong(o.getOrDefault("nexmark.event.num", "-1")),
        Integer.parseInt(o.getOrDefault("nexmark.split.num", "1")),
        Long.parseLong(o.getOrDefault("nexmark.seed", "0")),
        Long.parseLong(o.getOrDefault("nexmark.base.time", Long.toString(DEFAULT_BASE_TIME_MS))),
        Long.parseLong(o.getOrDefault("nexmark.first.event.rate", "10000000")),
        Integer.parseInt(o.getOrDefault("nexmark.max.chunk.size", "1024")));
  }

  /** The same options for another table type. */
  public NexmarkConfig withTableType(TableType type) {
    return new NexmarkConfig(
        type, eventNum, splitNum, seed, baseTimeMs, firstEventRate, maxChunkSize);
  }
}

package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.Schema;
import java.util.List;
import java.util.Map;

/**
 * Reads a shared source (a {@code CREATE SOURCE} that runs as its own job, one consumer for every
 * view over it): first the source's history from the startup position up to where the shared
 * consumer is, read by the actor itself, then the shared consumer's live rows, with neither gap nor
 * duplicate at the hand-off. A {@link StreamNode} kept in a file of its own; like a {@code
 * StreamScan} it is a leaf whose live input, the source job's actor it is paired with, is added
 * when the actor is built.
 *
 * @param sourceId the source relation read (its job's one fragment is the live input)
 * @param connector the source's connector
 * @param properties the source's options, as its job reads them
 * @param schema the source's columns, its hidden row id last (the row id names the record's
 *     partition and offset, which the hand-off compares)
 * @param stateTable where the backfill keeps each partition's position, so recovery resumes it
 * @param rateLimit history records per second per backfill actor ({@code SET backfill_rate_limit});
 *     {@link StreamNode.StreamScan#UNLIMITED} for none, 0 pauses the read
 */
public record SourceBackfillNode(
    int sourceId,
    SourceConnector connector,
    Map<String, String> properties,
    Schema schema,
    TableDesc stateTable,
    long rateLimit)
    implements StreamNode {
  public SourceBackfillNode {
    Checks.checkArgument(sourceId > 0, "backfilled source id must be > 0, got %s", sourceId);
    Checks.checkNotNull(connector, "source connector");
    Checks.checkNotNull(schema, "source schema");
    Checks.checkNotNull(stateTable, "source backfill state table");
    properties = Map.copyOf(properties);
    Checks.checkArgument(
        rateLimit >= StreamScan.UNLIMITED,
        "source backfill rate limit must be >= 0 or UNLIMITED, got %s",
        rateLimit);
  }

  /** This backfill with a rate limit (records/s per actor; UNLIMITED for none). */
  public SourceBackfillNode withRateLimit(long rowsPerSecond) {
    return new SourceBackfillNode(
        sourceId, connector, properties, schema, stateTable, rowsPerSecond);
  }

  @Override
  public int inputCount() {
    return 0;
  }

  @Override
  public void checkSchemas(List<Schema> inputs, Schema output) {
    Checks.checkArgument(
        output.types().equals(schema.types()),
        "SourceBackfill of source %s: expected types %s, got %s",
        sourceId,
        schema.types(),
        output.types());
  }

  @Override
  public String kindName() {
    return "SourceBackfill";
  }
}

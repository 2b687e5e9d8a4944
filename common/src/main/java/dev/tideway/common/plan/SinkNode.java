package dev.tideway.common.plan;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.Schema;
import java.util.List;
import java.util.Map;

/**
 * Writes its input's changes to an external system ({@code CREATE SINK}); a {@link StreamNode} kept
 * in a file of its own.
 *
 * @param properties the sink's {@code WITH} options and its {@code format}/{@code encode}
 * @param schema the input's columns as the sink writes them (names are the JSON members)
 * @param keyIndices the input columns that name a row (an upsert sink's record key)
 * @param logStore where the sink keeps the records of epochs not yet delivered, so a recovery
 *     delivers each committed epoch once
 */
public record SinkNode(
    Map<String, String> properties, Schema schema, List<Integer> keyIndices, TableDesc logStore)
    implements StreamNode {
  public SinkNode {
    Checks.checkNotNull(schema, "sink schema");
    Checks.checkNotNull(logStore, "sink log store");
    properties = Map.copyOf(properties);
    keyIndices = List.copyOf(keyIndices);
    for (int k : keyIndices) {
      Checks.checkArgument(
          k >= 0 && k < schema.size(), "sink key column %s out of [0, %s)", k, schema.size());
    }
  }

  @Override
  public int inputCount() {
    return 1;
  }

  @Override
  public void checkSchemas(List<Schema> inputs, Schema output) {
    Checks.checkArgument(
        inputs.get(0).types().equals(schema.types()),
        "Sink input: expected types %s, got %s",
        schema.types(),
        inputs.get(0).types());
    Checks.checkArgument(
        output.types().equals(schema.types()),
        "Sink output: expected types %s, got %s",
        schema.types(),
        output.types());
  }

  @Override
  public String kindName() {
    return "Sink";
  }
}

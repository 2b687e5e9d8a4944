package dev.tideway.barrier.executor;

import dev.tideway.barrier.message.Message;
import dev.tideway.barrier.message.Watermark;
import dev.tideway.common.check.Checks;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Schema;
import java.util.List;

/**
 * Chunks match the executor's schema: same column count and types; watermarks name a column of it.
 */
final class SchemaCheck {
  private final ExecutorInfo info;
  private final Schema schema;

  SchemaCheck(ExecutorInfo info, Schema schema) {
    this.info = info;
    this.schema = schema;
  }

  void check(Message m) {
    if (m instanceof Message.Chunk c) {
      StreamChunk chunk = c.chunk();
      List<DataType> types = chunk.types();
      Checks.checkState(
          types.size() == schema.size(),
          "%s: chunk has %s columns %s but the schema has %s: %s",
          info,
          types.size(),
          types,
          schema.size(),
          schema.types());
      for (int i = 0; i < types.size(); i++) {
        Checks.checkState(
            types.get(i).id() == schema.type(i).id(),
            "%s: chunk column %s is %s but the schema says %s",
            info,
            i,
            types.get(i),
            schema.type(i));
      }
    } else if (m instanceof Watermark w) {
      Checks.checkState(
          w.columnIndex() < schema.size() && w.type().id() == schema.type(w.columnIndex()).id(),
          "%s: watermark on column %s (%s) does not match the schema %s",
          info,
          w.columnIndex(),
          w.type(),
          schema.types());
    }
  }
}

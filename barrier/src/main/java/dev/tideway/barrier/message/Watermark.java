package dev.tideway.barrier.message;

import dev.tideway.common.check.Checks;
import dev.tideway.common.types.DataType;

/**
 * No row with {@code column < value} will follow on this stream. {@code value} is the Java value of
 * {@code type} (see {@link DataType}).
 */
public record Watermark(int columnIndex, DataType type, Object value) implements Message {
  public Watermark {
    Checks.checkArgument(columnIndex >= 0, "watermark column must be >= 0, got %s", columnIndex);
    Checks.checkNotNull(type, "watermark type");
    Checks.checkNotNull(value, "watermark value");
    Checks.checkArgument(
        type.accepts(value), "watermark value %s is not a %s", value, type.sqlName());
  }
}

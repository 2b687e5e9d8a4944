package dev.tideway.common.types;

import dev.tideway.common.check.Checks;

/** A named, typed column. */
public record Field(String name, DataType type) {
  public Field {
    Checks.checkNotNull(name, "field name");
    Checks.checkNotNull(type, "field type");
  }

  public static Field of(String name, DataType type) {
    return new Field(name, type);
  }
}

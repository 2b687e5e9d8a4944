package dev.tideway.common.types;

import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.List;

/** The ordered fields of a row, a chunk or a table. Immutable. */
public record Schema(List<Field> fields) {
  public Schema {
    fields = List.copyOf(fields);
  }

  public static Schema of(Field... fields) {
    return new Schema(List.of(fields));
  }

  /** A schema with generated names {@code c0, c1, ...}. */
  public static Schema ofTypes(List<DataType> types) {
    List<Field> fs = new ArrayList<>(types.size());
    for (int i = 0; i < types.size(); i++) {
      fs.add(new Field("c" + i, types.get(i)));
    }
    return new Schema(fs);
  }

  public static Schema ofTypes(DataType... types) {
    return ofTypes(List.of(types));
  }

  public int size() {
    return fields.size();
  }

  public Field field(int i) {
    return fields.get(Checks.checkIndex(i, fields.size(), "schema field"));
  }

  public DataType type(int i) {
    return field(i).type();
  }

  public List<DataType> types() {
    return fields.stream().map(Field::type).toList();
  }

  /** This schema's fields followed by {@code other}'s. */
  public Schema concat(Schema other) {
    List<Field> f = new java.util.ArrayList<>(fields);
    f.addAll(other.fields);
    return new Schema(f);
  }

  /** The index of the field named {@code name}, or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < fields.size(); i++) {
      if (fields.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}

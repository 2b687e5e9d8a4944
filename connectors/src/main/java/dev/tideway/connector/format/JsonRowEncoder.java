package dev.tideway.connector.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.Schema;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.List;

/**
 * Rows to JSON objects, the inverse of {@link JsonRecordDecoder}: one member per column, named as
 * the column; numbers as JSON numbers ({@code numeric} exactly, NaN and infinities as strings),
 * booleans as booleans, {@code bytea} as base64, everything else in PostgreSQL's text form, NULL as
 * {@code null}. Confined to one thread.
 */
public final class JsonRowEncoder {
  private static final JsonFactory FACTORY = new JsonFactory();

  private final String[] names;
  private final DataType[] types;
  private final ByteArrayOutputStream buf = new ByteArrayOutputStream(256);

  public JsonRowEncoder(Schema columns) {
    names = new String[columns.size()];
    types = new DataType[columns.size()];
    for (int c = 0; c < columns.size(); c++) {
      names[c] = columns.field(c).name();
      types[c] = columns.type(c);
    }
  }

  /** The object of {@code values} (one per column, in column order). */
  public byte[] encode(Object[] values) {
    buf.reset();
    try (JsonGenerator g = FACTORY.createGenerator(buf)) {
      write(g, values, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buf.toByteArray();
  }

  /** The object of the columns {@code only} of {@code values} (an upsert sink's key). */
  public byte[] encode(Object[] values, List<Integer> only) {
    buf.reset();
    try (JsonGenerator g = FACTORY.createGenerator(buf)) {
      write(g, values, only);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buf.toByteArray();
  }

  /**
   * Debezium's envelope {@code {"before": row|null, "after": row|null, "op": op}} ({@code c}
   * create, {@code u} update, {@code d} delete), the rows of the columns {@code only} (all when
   * null).
   */
  public byte[] debezium(Object[] before, Object[] after, String op, List<Integer> only) {
    buf.reset();
    try (JsonGenerator g = FACTORY.createGenerator(buf)) {
      g.writeStartObject();
      g.writeFieldName("before");
      if (before == null) {
        g.writeNull();
      } else {
        write(g, before, only);
      }
      g.writeFieldName("after");
      if (after == null) {
        g.writeNull();
      } else {
        write(g, after, only);
      }
      g.writeStringField("op", op);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return buf.toByteArray();
  }

  /** Writes the object of {@code values} into {@code g} (all columns when {@code only} is null). */
  private void write(JsonGenerator g, Object[] values, List<Integer> only) throws IOException {
    g.writeStartObject();
    int n = only == null ? names.length : only.size();
    for (int i = 0; i < n; i++) {
      int c = only == null ? i : only.get(i);
      g.writeFieldName(names[c]);
      value(g, types[c], values[c]);
    }
    g.writeEndObject();
  }

  private static void value(JsonGenerator g, DataType type, Object v) throws IOException {
    if (v == null) {
      g.writeNull();
      return;
    }
    switch (type.id()) {
      case BOOLEAN -> g.writeBoolean((Boolean) v);
      case SMALLINT -> g.writeNumber((Short) v);
      case INT -> g.writeNumber((Integer) v);
      case BIGINT -> g.writeNumber((Long) v);
      case REAL -> {
        float f = (Float) v;
        if (Float.isFinite(f)) {
          g.writeNumber(f);
        } else {
          g.writeString(Datums.toText(type, v));
        }
      }
      case DOUBLE -> {
        double d = (Double) v;
        if (Double.isFinite(d)) {
          g.writeNumber(d);
        } else {
          g.writeString(Datums.toText(type, v));
        }
      }
      case DECIMAL -> g.writeNumber((BigDecimal) v);
      case BYTEA -> g.writeString(Base64.getEncoder().encodeToString((byte[]) v));
      default -> g.writeString(Datums.toText(type, v));
    }
  }
}

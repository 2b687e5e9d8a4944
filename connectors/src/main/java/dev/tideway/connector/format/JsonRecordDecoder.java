package dev.tideway.connector.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.Schema;
import java.io.IOException;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * {@code ENCODE JSON}: a record is one JSON object; each column takes the member of its name (an
 * exact match first, then ignoring case), a missing member or {@code null} is NULL, members without
 * a column are skipped. Values convert as RisingWave's JSON parser does where it is sensible:
 * numbers to any numeric type that holds them exactly (an integer into {@code real}/{@code double}
 * too), strings through PostgreSQL's text input of the column's type ({@code "12"} into an {@code
 * int}, {@code "2024-01-01 10:00:00"} into a timestamp), {@code bytea} from base64, a timestamp
 * from an integer as milliseconds since the epoch, and any JSON value into a {@code varchar} as its
 * JSON text. Anything else (a fraction into an integer, an out-of-range number, a string that does
 * not parse) fails the record.
 *
 * <p>Streaming (no tree is built); confined to one thread.
 */
public final class JsonRecordDecoder implements RecordDecoder {
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNestingDepth(200).maxNumberLength(2000).build())
          .build();

  private final DataType[] types;
  private final Map<String, Integer> exact = new HashMap<>();
  private final Map<String, Integer> folded = new HashMap<>();

  public JsonRecordDecoder(Schema columns) {
    types = columns.types().toArray(DataType[]::new);
    for (int c = 0; c < columns.size(); c++) {
      exact.put(columns.field(c).name(), c);
      folded.putIfAbsent(columns.field(c).name().toLowerCase(Locale.ROOT), c);
    }
  }

  @Override
  public void decode(byte[] payload, Object[] out) throws MalformedRecordException {
    Arrays.fill(out, null);
    if (payload == null || payload.length == 0) {
      throw new MalformedRecordException("empty record");
    }
    try (JsonParser p = FACTORY.createParser(payload)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        throw new MalformedRecordException("not a JSON object");
      }
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String name = p.currentName();
        Integer c = exact.get(name);
        if (c == null) {
          c = folded.get(name.toLowerCase(Locale.ROOT));
        }
        JsonToken v = p.nextToken();
        if (c == null) {
          p.skipChildren();
          continue;
        }
        out[c] = value(p, v, types[c], name);
      }
      if (t != JsonToken.END_OBJECT) {
        throw new MalformedRecordException("not a JSON object");
      }
      if (p.nextToken() != null) {
        throw new MalformedRecordException("text after the JSON object");
      }
    } catch (JsonProcessingException e) {
      throw new MalformedRecordException("invalid JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new MalformedRecordException("invalid JSON: " + e.getMessage(), e);
    }
  }

  private static Object value(JsonParser p, JsonToken v, DataType type, String name)
      throws IOException, MalformedRecordException {
    if (v == JsonToken.VALUE_NULL) {
      return null;
    }
    try {
      return switch (type.id()) {
        case VARCHAR -> v == JsonToken.VALUE_STRING ? p.getText() : jsonText(p);
        case BOOLEAN ->
            switch (v) {
              case VALUE_TRUE -> Boolean.TRUE;
              case VALUE_FALSE -> Boolean.FALSE;
              case VALUE_STRING -> Datums.fromText(type, p.getText());
              default -> throw mismatch(name, type, v);
            };
        case SMALLINT, INT, BIGINT -> integer(p, v, type, name);
        case REAL, DOUBLE, DECIMAL -> number(p, v, type, name);
        case BYTEA -> {
          if (v != JsonToken.VALUE_STRING) {
            throw mismatch(name, type, v);
          }
          yield Base64.getDecoder().decode(p.getText());
        }
        case TIMESTAMP, TIMESTAMPTZ -> {
          if (v == JsonToken.VALUE_NUMBER_INT) {
            Instant at = Instant.ofEpochMilli(p.getLongValue());
            yield type.id() == dev.tideway.common.types.TypeId.TIMESTAMPTZ
                ? at
                : at.atOffset(ZoneOffset.UTC).toLocalDateTime();
          }
          yield fromString(p, v, type, name);
        }
        default -> fromString(p, v, type, name);
      };
    } catch (IllegalArgumentException | ArithmeticException e) {
      throw new MalformedRecordException("member \"" + name + "\": " + e.getMessage(), e);
    }
  }

  private static Object fromString(JsonParser p, JsonToken v, DataType type, String name)
      throws IOException, MalformedRecordException {
    if (v != JsonToken.VALUE_STRING) {
      throw mismatch(name, type, v);
    }
    return Datums.fromText(type, p.getText());
  }

  private static Object integer(JsonParser p, JsonToken v, DataType type, String name)
      throws IOException, MalformedRecordException {
    long n;
    if (v == JsonToken.VALUE_STRING) {
      return Datums.fromText(type, p.getText());
    } else if (v == JsonToken.VALUE_NUMBER_INT) {
      if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
        throw new MalformedRecordException(
            "member \"" + name + "\": " + p.getText() + " is out of range for " + type.sqlName());
      }
      n = p.getLongValue();
    } else if (v == JsonToken.VALUE_NUMBER_FLOAT) {
      BigDecimal d = p.getDecimalValue();
      try {
        n = d.longValueExact();
      } catch (ArithmeticException e) {
        throw new MalformedRecordException(
            "member \"" + name + "\": " + p.getText() + " is not a " + type.sqlName());
      }
    } else {
      throw mismatch(name, type, v);
    }
    return switch (type.id()) {
      case SMALLINT -> {
        if (n != (short) n) {
          throw outOfRange(name, n, type);
        }
        yield (short) n;
      }
      case INT -> {
        if (n != (int) n) {
          throw outOfRange(name, n, type);
        }
        yield (int) n;
      }
      default -> n;
    };
  }

  private static Object number(JsonParser p, JsonToken v, DataType type, String name)
      throws IOException, MalformedRecordException {
    if (v == JsonToken.VALUE_STRING) {
      return Datums.fromText(type, p.getText());
    }
    if (v != JsonToken.VALUE_NUMBER_INT && v != JsonToken.VALUE_NUMBER_FLOAT) {
      throw mismatch(name, type, v);
    }
    return switch (type.id()) {
      case REAL -> (float) p.getDoubleValue();
      case DOUBLE -> p.getDoubleValue();
      default -> Datums.decimal(type, p.getDecimalValue());
    };
  }

  private static String jsonText(JsonParser p) throws IOException {
    StringWriter w = new StringWriter();
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.copyCurrentStructure(p);
    }
    return w.toString();
  }

  private static MalformedRecordException mismatch(String name, DataType type, JsonToken v) {
    return new MalformedRecordException(
        "member \"" + name + "\": a JSON " + kind(v) + " is not a " + type.sqlName());
  }

  private static MalformedRecordException outOfRange(String name, long n, DataType type) {
    return new MalformedRecordException(
        "member \"" + name + "\": " + n + " is out of range for " + type.sqlName());
  }

  private static String kind(JsonToken v) {
    return switch (v) {
      case START_OBJECT -> "object";
      case START_ARRAY -> "array";
      case VALUE_STRING -> "string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
      case VALUE_TRUE, VALUE_FALSE -> "boolean";
      default -> v.name();
    };
  }
}

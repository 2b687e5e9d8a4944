package dev.tideway.connector.format;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code ENCODE CSV (delimiter = ',')}: a record is one line of fields in column order, each read
 * by PostgreSQL's text input of its column's type; an empty unquoted field is NULL, a quoted one
 * ({@code "a,b"}, {@code ""} for a quote inside) is taken as written. A line with another number of
 * fields than columns, or a field that does not parse, fails the record. A trailing line break is
 * ignored. Confined to one thread.
 */
public final class CsvRecordDecoder implements RecordDecoder {
  private final DataType[] types;
  private final char delimiter;
  private final List<String> fields = new ArrayList<>();
  private final List<Boolean> quoted = new ArrayList<>();

  public CsvRecordDecoder(Schema columns, char delimiter) {
    this.types = columns.types().toArray(DataType[]::new);
    this.delimiter = delimiter;
  }

  @Override
  public void decode(byte[] payload, Object[] out) throws MalformedRecordException {
    Arrays.fill(out, null);
    if (payload == null) {
      throw new MalformedRecordException("empty record");
    }
    String line = new String(payload, StandardCharsets.UTF_8);
    int end = line.length();
    while (end > 0 && (line.charAt(end - 1) == '\n' || line.charAt(end - 1) == '\r')) {
      end--;
    }
    split(line, end);
    if (fields.size() != types.length) {
      throw new MalformedRecordException(
          "a line of " + fields.size() + " field(s) for " + types.length + " column(s)");
    }
    for (int c = 0; c < types.length; c++) {
      String f = fields.get(c);
      if (f.isEmpty() && !quoted.get(c)) {
        continue;
      }
      try {
        out[c] = Datums.fromText(types[c], f);
      } catch (IllegalArgumentException | ArithmeticException e) {
        throw new MalformedRecordException("field " + (c + 1) + ": " + e.getMessage(), e);
      }
    }
  }

  private void split(String s, int end) throws MalformedRecordException {
    fields.clear();
    quoted.clear();
    StringBuilder f = new StringBuilder();
    boolean inQuotes = false;
    boolean wasQuoted = false;
    for (int i = 0; i < end; i++) {
      char ch = s.charAt(i);
      if (inQuotes) {
        if (ch == '"') {
          if (i + 1 < end && s.charAt(i + 1) == '"') {
            f.append('"');
            i++;
          } else {
            inQuotes = false;
          }
        } else {
          f.append(ch);
        }
      } else if (ch == '"' && f.isEmpty() && !wasQuoted) {
        inQuotes = true;
        wasQuoted = true;
      } else if (ch == delimiter) {
        fields.add(f.toString());
        quoted.add(wasQuoted);
        f.setLength(0);
        wasQuoted = false;
      } else {
        f.append(ch);
      }
    }
    if (inQuotes) {
      throw new MalformedRecordException("an unterminated quoted field");
    }
    fields.add(f.toString());
    quoted.add(wasQuoted);
  }
}

package dev.tideway.frontend.session;

import dev.tideway.frontend.pgwire.PgException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Cuts COPY's data stream into rows of field texts (null for NULL), in PostgreSQL's text format
 * (delimited fields, backslash escapes, {@code \N}) or CSV (quoted fields with doubled quotes,
 * newlines inside quotes; an unquoted field equal to the NULL string is NULL). CopyData messages
 * cut the stream anywhere: what follows the last complete row is kept for the next one. Both
 * formats end a row at a newline byte outside quotes, which never occurs inside a UTF-8 character.
 * Not thread-safe: the session's thread.
 */
final class CopyDecoder {
  private final boolean csv;
  private final char delimiter;
  private final String nullString;
  private boolean skipHeader;
  private final Consumer<String[]> rows;
  private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
  private boolean inQuotes;
  private boolean ended;
  private long line;

  CopyDecoder(
      boolean csv, char delimiter, String nullString, boolean header, Consumer<String[]> rows) {
    this.csv = csv;
    this.delimiter = delimiter;
    this.nullString = nullString;
    this.skipHeader = header;
    this.rows = rows;
  }

  /** Takes the next bytes of the stream. */
  void data(byte[] bytes) {
    for (byte b : bytes) {
      if (b == '"' && csv) {
        inQuotes = !inQuotes; // a doubled quote flips twice
      }
      if (b == '\n' && !inQuotes) {
        record(partial.toByteArray());
        partial.reset();
      } else {
        partial.write(b);
      }
    }
  }

  /** The end of the stream: a last row without its newline counts too. */
  void finish() {
    if (inQuotes) {
      throw bad("unterminated CSV quoted field");
    }
    if (partial.size() > 0) {
      record(partial.toByteArray());
      partial.reset();
    }
  }

  private void record(byte[] raw) {
    line++;
    String text = new String(raw, StandardCharsets.UTF_8);
    if (text.endsWith("\r")) {
      text = text.substring(0, text.length() - 1);
    }
    if (ended) {
      return;
    }
    if (!csv && text.equals("\\.")) {
      ended = true; // the old end-of-data marker
      return;
    }
    if (skipHeader) {
      skipHeader = false;
      return;
    }
    rows.accept(csv ? csvFields(text) : textFields(text));
  }

  private String[] textFields(String s) {
    List<String> out = new ArrayList<>();
    boolean escaped = false;
    int start = 0;
    for (int i = 0; i <= s.length(); i++) {
      if (i == s.length() || s.charAt(i) == delimiter) {
        String raw = s.substring(start, i);
        out.add(raw.equals(nullString) ? null : escaped ? unescape(raw) : raw);
        escaped = false;
        start = i + 1;
        continue;
      }
      if (s.charAt(i) == '\\') {
        escaped = true;
        if (i + 1 < s.length()) {
          i++; // an escaped delimiter does not end the field
        }
      }
    }
    return out.toArray(String[]::new);
  }

  private String unescape(String raw) {
    StringBuilder sb = new StringBuilder(raw.length());
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '\\' || i + 1 >= raw.length()) {
        sb.append(c);
        continue;
      }
      char n = raw.charAt(++i);
      switch (n) {
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'v' -> sb.append('\u000b');
        case 'x' -> {
          int end = i + 1;
          while (end < raw.length() && end < i + 3 && Character.digit(raw.charAt(end), 16) >= 0) {
            end++;
          }
          if (end == i + 1) {
            sb.append('x');
          } else {
            sb.append((char) Integer.parseInt(raw.substring(i + 1, end), 16));
            i = end - 1;
          }
        }
        default -> {
          if (n >= '0' && n <= '7') {
            int end = i;
            while (end < raw.length()
                && end < i + 3
                && raw.charAt(end) >= '0'
                && raw.charAt(end) <= '7') {
              end++;
            }
            sb.append((char) Integer.parseInt(raw.substring(i, end), 8));
            i = end - 1;
          } else {
            sb.append(n); // \\, \delimiter, any other char stands for itself
          }
        }
      }
    }
    return sb.toString();
  }

  private String[] csvFields(String s) {
    List<String> out = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    boolean inside = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (inside) {
        if (c == '"') {
          if (i + 1 < s.length() && s.charAt(i + 1) == '"') {
            f.append('"');
            i++;
          } else {
            inside = false;
          }
        } else {
          f.append(c);
        }
      } else if (c == '"') {
        inside = true;
        quoted = true;
      } else if (c == delimiter) {
        out.add(csvValue(f, quoted));
        f.setLength(0);
        quoted = false;
      } else {
        f.append(c);
      }
    }
    out.add(csvValue(f, quoted));
    return out.toArray(String[]::new);
  }

  private String csvValue(StringBuilder f, boolean quoted) {
    String v = f.toString();
    return !quoted && v.equals(nullString) ? null : v;
  }

  /** The line being read, for errors. */
  long line() {
    return line;
  }

  private PgException bad(String what) {
    return PgException.error("22P04", what + ", at line " + (line + 1));
  }
}

package dev.tideway.common.chunk;

import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Datums;
import dev.tideway.common.types.TypeId;
import java.util.ArrayList;
import java.util.List;

/**
 * A small text form of {@link StreamChunk}s for tests and debugging, one row per line:
 *
 * <pre>
 *      bigint varchar     &lt;- optional header: one type per column (no spaces: double, numeric(10,2))
 *   +  1      'a b'
 *   -  2      .           &lt;- '.' is NULL
 *   U- 3      x
 *   U+ 3      y       D   &lt;- a trailing D hides the row (visibility bit cleared)
 * </pre>
 *
 * Values use PostgreSQL's text form; a value with spaces, quotes, control characters or an empty
 * string is written in single quotes with {@code ''} for a quote and backslash escapes ({@code \\},
 * {@code \n}, {@code \r}, {@code \t}, {@code \}{@code uXXXX}) inside the quotes. Without a header,
 * column types are inferred from the values: integers are {@code bigint}, other numbers {@code
 * double}, {@code t}/{@code f}/{@code true}/{@code false} {@code boolean}, anything else {@code
 * varchar}. {@link #pretty} always writes a header, so {@code parse(pretty(c)).equals(c)} for every
 * chunk.
 */
public final class Chunks {
  private static final String NULL = ".";
  private static final String HIDDEN = "D";

  private Chunks() {}

  /** Parses the DSL; fails naming the line for bad input. */
  public static StreamChunk parse(String text) {
    List<List<String>> lines = new ArrayList<>();
    List<Integer> lineNumbers = new ArrayList<>();
    String[] raw = text.split("\n", -1);
    for (int n = 0; n < raw.length; n++) {
      List<String> tokens = tokenize(raw[n], n + 1);
      if (!tokens.isEmpty()) {
        lines.add(tokens);
        lineNumbers.add(n + 1);
      }
    }
    List<DataType> types = null;
    if (!lines.isEmpty() && !isOp(lines.get(0).get(0))) {
      types = new ArrayList<>();
      for (String t : lines.get(0)) {
        try {
          types.add(DataType.parse(t));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(
              "chunk line " + lineNumbers.get(0) + ": " + e.getMessage(), e);
        }
      }
      lines.remove(0);
      lineNumbers.remove(0);
    }
    if (types == null) {
      types = inferTypes(lines);
    }
    StreamChunkBuilder b = new StreamChunkBuilder(types, lines.size());
    for (int r = 0; r < lines.size(); r++) {
      List<String> tok = lines.get(r);
      int line = lineNumbers.get(r);
      boolean hidden = tok.size() == types.size() + 2 && tok.get(tok.size() - 1).equals(HIDDEN);
      int valueCount = tok.size() - 1 - (hidden ? 1 : 0);
      if (valueCount != types.size()) {
        throw new IllegalArgumentException(
            "chunk line "
                + line
                + ": expected "
                + types.size()
                + " values, got "
                + valueCount
                + ": "
                + tok);
      }
      try {
        Op op = Op.fromSymbol(tok.get(0));
        Object[] values = new Object[types.size()];
        for (int c = 0; c < types.size(); c++) {
          String v = tok.get(c + 1);
          values[c] = v == null ? null : Datums.fromText(types.get(c), v);
        }
        b.append(op, Row.wrap(values));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("chunk line " + line + ": " + e.getMessage(), e);
      }
      if (hidden) {
        b.hideLast();
      }
    }
    return b.build();
  }

  /** The DSL form of {@code chunk}, header included, columns aligned. */
  public static String pretty(StreamChunk chunk) {
    int cols = chunk.columnCount();
    List<String[]> rows = new ArrayList<>();
    String[] header = new String[cols + 2];
    header[0] = "";
    for (int c = 0; c < cols; c++) {
      header[c + 1] =
          chunk
              .column(c)
              .type()
              .sqlName()
              .replace("double precision", "double")
              .replace("character varying", "varchar")
              .replace("time without time zone", "time")
              .replace("timestamp without time zone", "timestamp")
              .replace("timestamp with time zone", "timestamptz");
    }
    header[cols + 1] = "";
    rows.add(header);
    for (int i = 0; i < chunk.size(); i++) {
      String[] cells = new String[cols + 2];
      cells[0] = chunk.op(i).symbol();
      for (int c = 0; c < cols; c++) {
        Object v = chunk.column(c).get(i);
        cells[c + 1] = v == null ? NULL : quoteIfNeeded(Datums.toText(chunk.column(c).type(), v));
      }
      cells[cols + 1] = chunk.isVisible(i) ? "" : HIDDEN;
      rows.add(cells);
    }
    int[] width = new int[cols + 2];
    for (String[] r : rows) {
      for (int c = 0; c < r.length; c++) {
        width[c] = Math.max(width[c], r[c].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < r.length; c++) {
        line.append(String.format("%-" + Math.max(width[c], 1) + "s", r[c]));
        if (c < r.length - 1) {
          line.append(' ');
        }
      }
      sb.append(line.toString().stripTrailing()).append('\n');
    }
    return sb.toString();
  }

  private static String quoteIfNeeded(String s) {
    boolean plain =
        !s.isEmpty()
            && !s.equals(NULL)
            && !s.equals(HIDDEN)
            && s.chars()
                .noneMatch(
                    ch -> Character.isWhitespace(ch) || ch == '\'' || ch < 0x20 || ch == 0x7f);
    if (plain) {
      return s;
    }
    StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      switch (ch) {
        case '\'' -> sb.append("''");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (ch < 0x20 || ch == 0x7f) {
            sb.append(String.format("\\u%04x", (int) ch));
          } else {
            sb.append(ch);
          }
        }
      }
    }
    return sb.append('\'').toString();
  }

  private static boolean isOp(String token) {
    return token != null
        && (token.equals("+") || token.equals("-") || token.equals("U-") || token.equals("U+"));
  }

  /** Splits on whitespace; a quoted token keeps its spaces; an unquoted '.' becomes null. */
  private static List<String> tokenize(String line, int lineNumber) {
    List<String> out = new ArrayList<>();
    int i = 0;
    int n = line.length();
    while (i < n) {
      char ch = line.charAt(i);
      if (Character.isWhitespace(ch)) {
        i++;
      } else if (ch == '\'') {
        StringBuilder sb = new StringBuilder();
        i++;
        while (true) {
          if (i >= n) {
            throw new IllegalArgumentException("chunk line " + lineNumber + ": unterminated quote");
          }
          char q = line.charAt(i);
          if (q == '\\' && i + 1 < n) {
            i = unescape(line, i, sb, lineNumber);
            continue;
          }
          if (q == '\'') {
            if (i + 1 < n && line.charAt(i + 1) == '\'') {
              sb.append('\'');
              i += 2;
              continue;
            }
            i++;
            break;
          }
          sb.append(q);
          i++;
        }
        out.add(sb.toString());
      } else {
        int start = i;
        while (i < n && !Character.isWhitespace(line.charAt(i))) {
          i++;
        }
        String t = line.substring(start, i);
        out.add(t.equals(NULL) ? null : t);
      }
    }
    return out;
  }

  /** Reads the escape at {@code line[i]} (a backslash) into {@code sb}; returns the next index. */
  private static int unescape(String line, int i, StringBuilder sb, int lineNumber) {
    char e = line.charAt(i + 1);
    switch (e) {
      case '\\' -> sb.append('\\');
      case 'n' -> sb.append('\n');
      case 'r' -> sb.append('\r');
      case 't' -> sb.append('\t');
      case 'u' -> {
        if (i + 6 > line.length()) {
          throw new IllegalArgumentException("chunk line " + lineNumber + ": bad \\u escape");
        }
        sb.append((char) Integer.parseInt(line.substring(i + 2, i + 6), 16));
        return i + 6;
      }
      default -> sb.append('\\').append(e); // not an escape: keep both characters
    }
    return i + 2;
  }

  private static List<DataType> inferTypes(List<List<String>> lines) {
    if (lines.isEmpty()) {
      return List.of();
    }
    // The first line sets the column count; its trailing D is a hidden marker when some line
    // is one token shorter. When every row is hidden, write a header.
    List<String> first = lines.get(0);
    int cols = first.size() - 1;
    boolean firstHidden = HIDDEN.equals(first.get(first.size() - 1));
    if (firstHidden && lines.stream().anyMatch(l -> l.size() == first.size() - 1)) {
      cols--;
    }
    List<DataType> types = new ArrayList<>(cols);
    for (int c = 0; c < cols; c++) {
      TypeId guess = null;
      for (List<String> l : lines) {
        String v = c + 1 < l.size() ? l.get(c + 1) : null; // short lines fail in parse()
        if (v == null) {
          continue;
        }
        TypeId t = guess(v);
        guess = guess == null || guess == t ? t : widen(guess, t);
      }
      types.add(DataType.of(guess == null ? TypeId.BIGINT : guess));
    }
    return types;
  }

  private static TypeId guess(String v) {
    if (v.matches("-?\\d+")) {
      return TypeId.BIGINT;
    }
    if (v.matches("-?(\\d+\\.\\d*|\\.\\d+|\\d+)([eE][-+]?\\d+)?")) {
      return TypeId.DOUBLE;
    }
    if (v.equals("t") || v.equals("f") || v.equals("true") || v.equals("false")) {
      return TypeId.BOOLEAN;
    }
    return TypeId.VARCHAR;
  }

  private static TypeId widen(TypeId a, TypeId b) {
    if ((a == TypeId.BIGINT && b == TypeId.DOUBLE) || (a == TypeId.DOUBLE && b == TypeId.BIGINT)) {
      return TypeId.DOUBLE;
    }
    return TypeId.VARCHAR;
  }
}

package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.plan.FunctionKind;
import dev.tideway.common.types.DataType;
import java.util.List;
import java.util.Locale;

/**
 * The string functions: {@code lower}, {@code upper}, {@code length} (characters, as code points),
 * {@code position(sub IN s)}, {@code replace(s, from, to)}, {@code trim(side chars FROM s)}, {@code
 * concat} (PostgreSQL's {@code concat()}: NULL arguments are skipped; the compiler casts non-text
 * arguments to text) and {@code substring(s, start [, count])} (1-based; a start before 1 shortens
 * the result, a negative count fails). NULL in, NULL out, except for {@code concat}.
 */
final class StringExpression implements Expression {
  private final FunctionKind kind;
  private final List<Expression> args;
  private final DataType type;

  StringExpression(FunctionKind kind, List<Expression> args, DataType type) {
    this.kind = kind;
    this.args = List.copyOf(args);
    this.type = type;
  }

  @Override
  public DataType returnType() {
    return type;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    ColumnVector[] in = new ColumnVector[args.size()];
    for (int k = 0; k < in.length; k++) {
      in[k] = args.get(k).eval(chunk, sel);
    }
    if (kind == FunctionKind.CONCAT) {
      return concat(in, sel, n);
    }
    boolean[] skip = Vectors.skipMask(in[0], sel, n);
    for (int k = 1; k < in.length; k++) {
      Vectors.orNulls(skip, in[k]);
    }
    if (kind == FunctionKind.LENGTH || kind == FunctionKind.POSITION) {
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        if (!skip[i]) {
          String s = (String) in[0].get(i);
          out[i] =
              kind == FunctionKind.LENGTH
                  ? s.codePointCount(0, s.length())
                  : position(s, (String) in[1].get(i));
        }
      }
      return Vectors.ofLongs(type, out, skip, n);
    }
    Object[] out = new Object[n];
    long[] start = kind == FunctionKind.SUBSTRING ? Vectors.longs(in[1], n) : null;
    long[] count = kind == FunctionKind.SUBSTRING && in.length > 2 ? Vectors.longs(in[2], n) : null;
    for (int i = 0; i < n; i++) {
      if (skip[i]) {
        continue;
      }
      String s = (String) in[0].get(i);
      out[i] =
          switch (kind) {
            case LOWER -> s.toLowerCase(Locale.ROOT);
            case UPPER -> s.toUpperCase(Locale.ROOT);
            case SUBSTRING -> substring(s, start[i], count == null ? -1 : count[i], count != null);
            case REPLACE -> replace(s, (String) in[1].get(i), (String) in[2].get(i));
            case TRIM -> trim(s, (String) in[1].get(i), (String) in[2].get(i));
            default -> throw new IllegalStateException("not a string function: " + kind);
          };
    }
    return Vectors.ofObjects(type, out, n);
  }

  private ColumnVector concat(ColumnVector[] in, boolean[] sel, int n) {
    Object[] out = new Object[n];
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (!sel[i]) {
        continue;
      }
      sb.setLength(0);
      for (ColumnVector v : in) {
        if (!v.isNull(i)) {
          sb.append((String) v.get(i));
        }
      }
      out[i] = sb.toString();
    }
    return Vectors.ofObjects(type, out, n);
  }

  /** PostgreSQL's substring: characters [start, start + count) of s, 1-based, clipped. */
  static String substring(String s, long start, long count, boolean hasCount) {
    if (hasCount && count < 0) {
      throw Errors.badArgument(
          "SUBSTRING", "negative substring length not allowed: " + count + " ('" + s + "')");
    }
    int chars = s.codePointCount(0, s.length());
    long from = Math.max(start, 1);
    long to = hasCount ? Math.min(saturatedAdd(start, count), chars + 1L) : chars + 1L;
    if (to <= from || from > chars) {
      return "";
    }
    int b = s.offsetByCodePoints(0, (int) from - 1);
    int e = s.offsetByCodePoints(0, (int) to - 1);
    return s.substring(b, e);
  }

  /** PostgreSQL's {@code position(sub IN s)}: 1-based in characters, 0 when absent. */
  static long position(String sub, String s) {
    int at = s.indexOf(sub);
    return at < 0 ? 0 : s.codePointCount(0, at) + 1;
  }

  static String replace(String s, String from, String to) {
    return from.isEmpty() ? s : s.replace(from, to);
  }

  /** {@code trim(side chars FROM s)}: removes characters of {@code chars} from the side(s). */
  static String trim(String side, String chars, String s) {
    int b = 0;
    int e = s.length();
    if (!side.equals("trailing")) {
      while (b < e && chars.indexOf(s.codePointAt(b)) >= 0) {
        b += Character.charCount(s.codePointAt(b));
      }
    }
    if (!side.equals("leading")) {
      while (e > b && chars.indexOf(s.codePointBefore(e)) >= 0) {
        e -= Character.charCount(s.codePointBefore(e));
      }
    }
    return s.substring(b, e);
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
  }

  @Override
  public String toString() {
    return kind + "" + args;
  }
}

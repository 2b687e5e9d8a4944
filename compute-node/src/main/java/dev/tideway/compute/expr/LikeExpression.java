package dev.tideway.compute.expr;

import dev.tideway.common.chunk.ColumnVector;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.types.DataType;
import java.util.regex.Pattern;

/**
 * {@code s LIKE pattern}: {@code %} matches any run of characters, {@code _} exactly one, a
 * backslash makes the next character literal; the whole string must match (case-sensitive). The
 * compiled pattern is cached while the pattern text repeats (the usual literal pattern compiles
 * once).
 */
final class LikeExpression implements Expression {
  private final Expression input;
  private final Expression pattern;

  /** The last pattern text compiled and its regex. */
  private String lastPattern;

  private Pattern lastRegex;

  LikeExpression(Expression input, Expression pattern) {
    this.input = input;
    this.pattern = pattern;
  }

  @Override
  public DataType returnType() {
    return DataType.BOOLEAN;
  }

  @Override
  public ColumnVector eval(StreamChunk chunk, boolean[] sel) {
    int n = chunk.size();
    ColumnVector s = input.eval(chunk, sel);
    ColumnVector p = pattern.eval(chunk, sel);
    boolean[] skip = Vectors.skipMask(s, sel, n);
    Vectors.orNulls(skip, p);
    boolean[] out = new boolean[n];
    for (int i = 0; i < n; i++) {
      if (!skip[i]) {
        out[i] = regex((String) p.get(i)).matcher((String) s.get(i)).matches();
      }
    }
    return Vectors.ofBools(out, skip, n);
  }

  private Pattern regex(String like) {
    if (!like.equals(lastPattern)) {
      lastRegex = Pattern.compile(toRegex(like), Pattern.DOTALL);
      lastPattern = like;
    }
    return lastRegex;
  }

  /** The Java regex equivalent to a LIKE pattern; a trailing lone backslash fails. */
  static String toRegex(String like) {
    StringBuilder sb = new StringBuilder();
    StringBuilder literal = new StringBuilder();
    for (int i = 0; i < like.length(); i++) {
      char c = like.charAt(i);
      if (c == '\\') {
        if (i + 1 >= like.length()) {
          throw Errors.badArgument(
              "LIKE", "LIKE pattern must not end with escape character: '" + like + "'");
        }
        literal.append(like.charAt(++i));
      } else if (c == '%' || c == '_') {
        if (!literal.isEmpty()) {
          sb.append(Pattern.quote(literal.toString()));
          literal.setLength(0);
        }
        sb.append(c == '%' ? ".*" : ".");
      } else {
        literal.append(c);
      }
    }
    if (!literal.isEmpty()) {
      sb.append(Pattern.quote(literal.toString()));
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return "LIKE(" + input + ", " + pattern + ")";
  }
}

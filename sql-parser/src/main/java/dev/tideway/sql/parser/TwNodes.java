package dev.tideway.sql.parser;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlWriter;

/**
 * Helpers the AST nodes share (element lists, WITH options, FORMAT/ENCODE) and {@link #text}, the
 * text of an option or SET value as a user wrote it. Stateless.
 */
public final class TwNodes {
  private TwNodes() {}

  /** {@code (a, b, ...)}. */
  static void unparseList(SqlWriter writer, SqlNodeList list) {
    SqlWriter.Frame frame = writer.startList("(", ")");
    for (SqlNode n : list) {
      writer.sep(",");
      n.unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }

  /** {@code WITH (key = value, ...)}: keys as string literals, which parse back the same. */
  static void unparseWith(SqlWriter writer, SqlNodeList with) {
    if (with == null) {
      return;
    }
    writer.keyword("WITH");
    SqlWriter.Frame frame = writer.startList("(", ")");
    List<SqlNode> l = with.getList();
    for (int i = 0; i + 1 < l.size(); i += 2) {
      writer.sep(",");
      l.get(i).unparse(writer, 0, 0);
      writer.keyword("=");
      l.get(i + 1).unparse(writer, 0, 0);
    }
    writer.endList(frame);
  }

  static void unparseFormatEncode(SqlWriter writer, SqlNodeList formatEncode) {
    if (formatEncode == null) {
      return;
    }
    writer.keyword("FORMAT");
    formatEncode.get(0).unparse(writer, 0, 0);
    writer.keyword("ENCODE");
    formatEncode.get(1).unparse(writer, 0, 0);
    if (formatEncode.size() > 2) {
      SqlWriter.Frame frame = writer.startList("(", ")");
      List<SqlNode> l = ((SqlNodeList) formatEncode.get(2)).getList();
      for (int i = 0; i + 1 < l.size(); i += 2) {
        writer.sep(",");
        l.get(i).unparse(writer, 0, 0);
        writer.keyword("=");
        l.get(i + 1).unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
  }

  /**
   * The options in written order: key → value text (a string's value, a number's digits, a name,
   * {@code true}/{@code false}).
   */
  public static Map<String, String> options(SqlNodeList with) {
    Map<String, String> out = new LinkedHashMap<>();
    if (with == null) {
      return out;
    }
    List<SqlNode> l = with.getList();
    for (int i = 0; i + 1 < l.size(); i += 2) {
      out.put(text(l.get(i)), text(l.get(i + 1)));
    }
    return out;
  }

  /** The text of a literal or a name, as a user wrote it (strings without quotes). */
  public static String text(SqlNode n) {
    if (n instanceof SqlIdentifier id) {
      return String.join(".", id.names);
    }
    if (n instanceof SqlLiteral lit) {
      Object v = lit.getValue();
      if (v instanceof Boolean b) {
        return b.toString();
      }
      String s = lit.toValue();
      return s == null ? "null" : s;
    }
    return n.toString().toLowerCase(Locale.ROOT);
  }
}

package dev.tideway.sql.parser;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE SINK [IF NOT EXISTS] name FROM relation | AS query [WITH (...)] [FORMAT x ENCODE y
 * [(...)]]}: exactly one of {@link #from} and {@link #query} is set; absent clauses are null.
 * Immutable.
 */
public final class SqlTwCreateSink extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("CREATE SINK", SqlKind.OTHER_DDL);

  public final SqlIdentifier name;
  public final SqlIdentifier from;
  public final SqlNode query;
  public final SqlNodeList with;
  public final SqlNodeList formatEncode;

  public SqlTwCreateSink(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlIdentifier from,
      SqlNode query,
      SqlNodeList with,
      SqlNodeList formatEncode) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = name;
    this.from = from;
    this.query = query;
    this.with = with;
    this.formatEncode = formatEncode;
  }

  /** WITH options, key → value text, in written order. */
  public Map<String, String> withOptions() {
    return TwNodes.options(with);
  }

  /** {@code FORMAT x} (lower case), or null when not written. */
  public String format() {
    return formatEncode == null
        ? null
        : ((SqlIdentifier) formatEncode.get(0)).getSimple().toLowerCase(Locale.ROOT);
  }

  /** {@code ENCODE y} (lower case), or null when not written. */
  public String encode() {
    return formatEncode == null
        ? null
        : ((SqlIdentifier) formatEncode.get(1)).getSimple().toLowerCase(Locale.ROOT);
  }

  @Override
  public List<SqlNode> getOperandList() {
    return Arrays.asList(name, from, query, with, formatEncode);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE SINK");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (from != null) {
      writer.keyword("FROM");
      from.unparse(writer, leftPrec, rightPrec);
    } else {
      writer.keyword("AS");
      query.unparse(writer, 0, 0);
    }
    TwNodes.unparseWith(writer, with);
    TwNodes.unparseFormatEncode(writer, formatEncode);
  }
}

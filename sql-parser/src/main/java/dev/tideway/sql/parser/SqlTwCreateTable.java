package dev.tideway.sql.parser;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE TABLE [IF NOT EXISTS] name [(elements)] [APPEND ONLY] [WITH (options)] [FORMAT x
 * ENCODE y] [AS query]}. Elements are Calcite's {@link SqlColumnDeclaration}s and {@link
 * SqlKeyConstraint}s; a column-level {@code PRIMARY KEY} arrives as a constraint right after its
 * column. Absent clauses are null ({@link #elements}, {@link #with}, {@link #formatEncode}, {@link
 * #query}). Immutable.
 */
public final class SqlTwCreateTable extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);

  public final SqlIdentifier name;
  public final SqlNodeList elements;
  public final boolean appendOnly;
  public final SqlNodeList with;
  public final SqlNodeList formatEncode;
  public final SqlNode query;

  public SqlTwCreateTable(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList elements,
      boolean appendOnly,
      SqlNodeList with,
      SqlNodeList formatEncode,
      SqlNode query) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = name;
    this.elements = elements;
    this.appendOnly = appendOnly;
    this.with = with;
    this.formatEncode = formatEncode;
    this.query = query;
  }

  /** The column declarations, in order. */
  public List<SqlColumnDeclaration> columns() {
    return columns(elements);
  }

  /** The primary-key columns of every PRIMARY KEY constraint, in order (empty: none). */
  public List<String> primaryKey() {
    return primaryKey(elements);
  }

  /** WITH options, key → value text, in written order. */
  public Map<String, String> withOptions() {
    return TwNodes.options(with);
  }

  static List<SqlColumnDeclaration> columns(SqlNodeList elements) {
    List<SqlColumnDeclaration> out = new ArrayList<>();
    if (elements != null) {
      for (SqlNode n : elements) {
        if (n instanceof SqlColumnDeclaration c) {
          out.add(c);
        }
      }
    }
    return out;
  }

  static List<String> primaryKey(SqlNodeList elements) {
    List<String> out = new ArrayList<>();
    if (elements != null) {
      for (SqlNode n : elements) {
        if (n instanceof SqlKeyConstraint k && k.getOperator().getKind() == SqlKind.PRIMARY_KEY) {
          for (SqlNode id : (SqlNodeList) k.getOperandList().get(1)) {
            out.add(((SqlIdentifier) id).getSimple());
          }
        }
      }
    }
    return out;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return Arrays.asList(
        name,
        elements,
        SqlLiteral.createBoolean(appendOnly, SqlParserPos.ZERO),
        with,
        formatEncode,
        query);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getReplace() ? "CREATE OR REPLACE TABLE" : "CREATE TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (elements != null) {
      TwNodes.unparseList(writer, elements);
    }
    if (appendOnly) {
      writer.keyword("APPEND ONLY");
    }
    TwNodes.unparseWith(writer, with);
    TwNodes.unparseFormatEncode(writer, formatEncode);
    if (query != null) {
      writer.keyword("AS");
      writer.newlineAndIndent();
      query.unparse(writer, 0, 0);
    }
  }
}

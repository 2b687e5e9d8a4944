package dev.tideway.sql.parser;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code CREATE SOURCE [IF NOT EXISTS] name [(columns)] [WITH (connector = '...', ...)] [FORMAT x
 * ENCODE y]}. Absent clauses are null; whether a source without WITH or columns is acceptable is
 * the caller's decision (it names the problem better than a grammar error). Immutable.
 */
public final class SqlTwCreateSource extends SqlCreate {
  private static final SqlOperator OPERATOR =
      new SqlSpecialOperator("CREATE SOURCE", SqlKind.OTHER_DDL);

  public final SqlIdentifier name;
  public final SqlNodeList elements;
  public final SqlNodeList with;
  public final SqlNodeList formatEncode;

  public SqlTwCreateSource(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList elements,
      SqlNodeList with,
      SqlNodeList formatEncode) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = name;
    this.elements = elements;
    this.with = with;
    this.formatEncode = formatEncode;
  }

  /** The declared columns, in order (empty: none declared). */
  public List<SqlColumnDeclaration> columns() {
    return SqlTwCreateTable.columns(elements);
  }

  /** The primary-key columns declared (empty: none). */
  public List<String> primaryKey() {
    return SqlTwCreateTable.primaryKey(elements);
  }

  /** WITH options, key → value text, in written order. */
  public Map<String, String> withOptions() {
    return TwNodes.options(with);
  }

  @Override
  public List<SqlNode> getOperandList() {
    return Arrays.asList(name, elements, with, formatEncode);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("CREATE SOURCE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (elements != null) {
      TwNodes.unparseList(writer, elements);
    }
    TwNodes.unparseWith(writer, with);
    TwNodes.unparseFormatEncode(writer, formatEncode);
  }
}

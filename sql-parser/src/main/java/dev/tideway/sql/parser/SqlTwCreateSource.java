package dev.tideway.sql.parser;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
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

  /** {@code INCLUDE what [AS name]} clauses: pairs (what, name or null); empty when none. */
  public final SqlNodeList includes;

  public final SqlNodeList with;
  public final SqlNodeList formatEncode;

  public SqlTwCreateSource(
      SqlParserPos pos,
      boolean replace,
      boolean ifNotExists,
      SqlIdentifier name,
      SqlNodeList elements,
      SqlNodeList includes,
      SqlNodeList with,
      SqlNodeList formatEncode) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = name;
    this.elements = elements;
    this.includes = includes;
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

  /**
   * The {@code INCLUDE} clauses in written order: what is included ({@code key}, {@code partition},
   * ...; lower case) → the column name given, or null for the default one.
   */
  public Map<String, String> includeColumns() {
    Map<String, String> out = new LinkedHashMap<>();
    if (includes != null) {
      for (SqlNode n : includes) {
        SqlNodeList pair = (SqlNodeList) n;
        String what = ((SqlLiteral) pair.get(0)).getValueAs(String.class);
        SqlNode alias = pair.get(1);
        out.put(what, alias == null ? null : ((SqlIdentifier) alias).getSimple());
      }
    }
    return out;
  }

  /** The options of {@code ENCODE x (options)}, key → value text; empty when none. */
  public Map<String, String> encodeOptions() {
    return formatEncode == null || formatEncode.size() < 3
        ? Map.of()
        : TwNodes.options((SqlNodeList) formatEncode.get(2));
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
    return Arrays.asList(name, elements, includes, with, formatEncode);
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
    includeColumns()
        .forEach(
            (what, alias) -> {
              writer.keyword("INCLUDE");
              writer.keyword(what.toUpperCase(Locale.ROOT));
              if (alias != null) {
                writer.keyword("AS");
                writer.identifier(alias, true);
              }
            });
    TwNodes.unparseWith(writer, with);
    TwNodes.unparseFormatEncode(writer, formatEncode);
  }
}

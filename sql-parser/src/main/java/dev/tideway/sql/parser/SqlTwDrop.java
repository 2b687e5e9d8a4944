package dev.tideway.sql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** {@code DROP TABLE | MATERIALIZED VIEW | VIEW | SOURCE [IF EXISTS] name [CASCADE]}. Immutable. */
public final class SqlTwDrop extends SqlDrop {
  /** What is dropped. */
  public enum Kind {
    TABLE("TABLE"),
    MATERIALIZED_VIEW("MATERIALIZED VIEW"),
    VIEW("VIEW"),
    SOURCE("SOURCE"),
    SINK("SINK");

    /** As written after DROP. */
    public final String sql;

    Kind(String sql) {
      this.sql = sql;
    }
  }

  private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP", SqlKind.OTHER_DDL);

  private final Kind kind;
  private final SqlIdentifier name;
  private final boolean cascade;

  public SqlTwDrop(
      SqlParserPos pos, Kind kind, boolean ifExists, SqlIdentifier name, boolean cascade) {
    super(OPERATOR, pos, ifExists);
    this.kind = kind;
    this.name = name;
    this.cascade = cascade;
  }

  public Kind kind() {
    return kind;
  }

  public SqlIdentifier name() {
    return name;
  }

  public boolean cascade() {
    return cascade;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(
        SqlLiteral.createSymbol(kind, SqlParserPos.ZERO),
        SqlLiteral.createBoolean(ifExists, SqlParserPos.ZERO),
        name,
        SqlLiteral.createBoolean(cascade, SqlParserPos.ZERO));
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("DROP");
    writer.keyword(kind.sql);
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (cascade) {
      writer.keyword("CASCADE");
    }
  }
}

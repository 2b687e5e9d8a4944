package dev.tideway.sql.parser;

import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's interval literal with the units inside the string, {@code INTERVAL '1 hour'}: a call
 * of {@link #OPERATOR} on the string. Calcite cannot type it; the frontend replaces it with a
 * SQL-standard interval literal before validation. Stateless.
 */
public final class PgIntervalLiteral {
  /** {@code INTERVAL 'text'}; its one operand is the string literal. */
  public static final SqlSpecialOperator OPERATOR =
      new SqlSpecialOperator("PG_INTERVAL", SqlKind.OTHER_FUNCTION) {
        @Override
        public void unparse(SqlWriter writer, SqlCall call, int leftPrec, int rightPrec) {
          writer.keyword("INTERVAL");
          call.operand(0).unparse(writer, 0, 0);
        }
      };

  private PgIntervalLiteral() {}

  /** The node for {@code INTERVAL [-] 'text'} (a negative one is a unary minus of it). */
  public static SqlNode create(SqlParserPos pos, int sign, String text) {
    SqlNode call = OPERATOR.createCall(pos, SqlLiteral.createCharString(text, pos));
    return sign < 0 ? SqlStdOperatorTable.UNARY_MINUS.createCall(pos, call) : call;
  }

  /** Whether {@code node} is such a literal. */
  public static boolean is(SqlNode node) {
    return node instanceof SqlCall c && c.getOperator() == OPERATOR;
  }

  /** The string of such a literal ({@code 1 hour}). */
  public static String text(SqlCall call) {
    return ((SqlLiteral) call.operand(0)).getValueAs(String.class);
  }
}

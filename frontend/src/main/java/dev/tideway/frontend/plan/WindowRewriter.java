package dev.tideway.frontend.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * RisingWave's window syntax to Calcite's: {@code FROM TUMBLE(bid, date_time, INTERVAL '10'
 * SECOND)} arrives as {@code TABLE(TUMBLE(bid, date_time, ...))} and becomes {@code
 * TABLE(TUMBLE(TABLE bid, DESCRIPTOR(date_time), ...))}; HOP likewise (same argument order).
 */
final class WindowRewriter extends SqlShuttle {
  @Override
  public SqlNode visit(SqlCall call) {
    SqlNode v = super.visit(call);
    if (v instanceof SqlCall c
        && c.getKind() == SqlKind.COLLECTION_TABLE
        && c.operand(0) instanceof SqlCall f) {
      String fn = f.getOperator().getName().toUpperCase(Locale.ROOT);
      if ((fn.equals("TUMBLE") || fn.equals("HOP")) && f.operand(0) instanceof SqlIdentifier t) {
        SqlParserPos p = c.getParserPosition();
        List<SqlNode> args = new ArrayList<>(f.getOperandList());
        args.set(0, SqlStdOperatorTable.EXPLICIT_TABLE.createCall(p, t));
        args.set(1, SqlStdOperatorTable.DESCRIPTOR.createCall(p, args.get(1)));
        SqlOperator op = fn.equals("TUMBLE") ? SqlStdOperatorTable.TUMBLE : SqlStdOperatorTable.HOP;
        return SqlStdOperatorTable.COLLECTION_TABLE.createCall(p, op.createCall(p, args));
      }
    }
    return v;
  }
}

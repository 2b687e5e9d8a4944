package dev.tideway.sql.parser;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * A Tideway command that is not a query or DDL: {@link Verb} plus its arguments.
 *
 * <ul>
 *   <li>{@code SHOW}: one identifier per word ({@code SHOW MATERIALIZED VIEWS} → [materialized,
 *       views]; a dotted word is one compound identifier);
 *   <li>{@code CANCEL_JOBS}: the job ids as numeric literals (possibly none: the caller reports
 *       that);
 *   <li>{@code EXPLAIN}: the explained statement;
 *   <li>{@code ALTER_MATERIALIZED_VIEW_SET}: [view name, option name, value];
 *   <li>{@code FLUSH}, {@code BEGIN}, {@code START_TRANSACTION}, {@code COMMIT}, {@code ROLLBACK}:
 *       none.
 * </ul>
 *
 * <p>Immutable.
 */
public final class SqlTwCommand extends SqlCall {
  /** What the command does. */
  public enum Verb {
    SHOW,
    CANCEL_JOBS,
    FLUSH,
    EXPLAIN,
    BEGIN,
    START_TRANSACTION,
    COMMIT,
    ROLLBACK,
    ALTER_MATERIALIZED_VIEW_SET
  }

  private static final SqlOperator OPERATOR = new SqlSpecialOperator("TW_COMMAND", SqlKind.OTHER);

  private final Verb verb;
  private final SqlNodeList args;

  public SqlTwCommand(SqlParserPos pos, Verb verb, SqlNodeList args) {
    super(pos);
    this.verb = verb;
    this.args = args;
  }

  public Verb verb() {
    return verb;
  }

  public SqlNodeList args() {
    return args;
  }

  /** {@code SHOW}'s words, lower case, space-separated ({@code materialized views}). */
  public String showWhat() {
    List<String> words = new ArrayList<>();
    for (SqlNode n : args) {
      words.add(TwNodes.text(n));
    }
    return String.join(" ", words);
  }

  /** {@code CANCEL JOBS}' ids. */
  public List<Long> jobIds() {
    List<Long> ids = new ArrayList<>();
    for (SqlNode n : args) {
      ids.add(((SqlNumericLiteral) n).longValue(true));
    }
    return ids;
  }

  /** {@code EXPLAIN}'s statement. */
  public SqlNode explained() {
    return args.get(0);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(SqlLiteral.createSymbol(verb, SqlParserPos.ZERO), args);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    switch (verb) {
      case SHOW -> {
        writer.keyword("SHOW");
        for (SqlNode n : args) {
          n.unparse(writer, 0, 0);
        }
      }
      case CANCEL_JOBS -> {
        writer.keyword("CANCEL JOBS");
        SqlWriter.Frame frame = writer.startList("", "");
        for (SqlNode n : args) {
          writer.sep(",");
          n.unparse(writer, 0, 0);
        }
        writer.endList(frame);
      }
      case FLUSH -> writer.keyword("FLUSH");
      case EXPLAIN -> {
        writer.keyword("EXPLAIN");
        explained().unparse(writer, 0, 0);
      }
      case BEGIN -> writer.keyword("BEGIN");
      case START_TRANSACTION -> writer.keyword("START TRANSACTION");
      case COMMIT -> writer.keyword("COMMIT");
      case ROLLBACK -> writer.keyword("ROLLBACK");
      case ALTER_MATERIALIZED_VIEW_SET -> {
        writer.keyword("ALTER MATERIALIZED VIEW");
        args.get(0).unparse(writer, 0, 0);
        writer.keyword("SET");
        args.get(1).unparse(writer, 0, 0);
        writer.keyword("=");
        SqlNode value = args.get(2);
        if (value instanceof SqlIdentifier id
            && id.isSimple()
            && id.getSimple().equals("default")) {
          writer.keyword("DEFAULT");
        } else {
          value.unparse(writer, 0, 0);
        }
      }
    }
  }
}

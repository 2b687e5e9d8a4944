package dev.tideway.frontend.sql;

import dev.tideway.sql.parser.impl.TwSqlParserImpl;
import java.io.Reader;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.util.SourceStringReader;

/**
 * Tideway's generated parser ({@code TwSqlParserImpl}) with {@link PgShuttle} applied to every
 * query it returns, so that each place that parses SQL text (the statement parser, the batch
 * engine's Calcite connection, the view planner) sees the same PostgreSQL-flavoured trees turned
 * into what Calcite validates: {@code ::} and PostgreSQL type names as {@code CAST}, regular
 * expressions as {@code pg_regex_match}, {@code INTERVAL '1 hour'} as a typed interval,
 * RisingWave's {@code TUMBLE}/{@code HOP}, {@code generate_series} aliases. Stateless; a parser
 * instance is used by one thread for one parse.
 */
public final class PgParser {
  /** The parser factory; also named by the batch engine's connection ({@code PgParser#FACTORY}). */
  public static final SqlParserImplFactory FACTORY = PgParser::newParser;

  /** PostgreSQL-like: unquoted names fold to lower case, "quoted" ones are kept, case-sensitive. */
  public static final SqlParser.Config CONFIG =
      SqlParser.config()
          .withParserFactory(FACTORY)
          .withQuoting(Quoting.DOUBLE_QUOTE)
          .withUnquotedCasing(Casing.TO_LOWER)
          .withQuotedCasing(Casing.UNCHANGED)
          .withCaseSensitive(true)
          .withConformance(org.apache.calcite.sql.validate.SqlConformanceEnum.LENIENT);

  /** The same settings without the shuttle (for the shuttle's own small parses). */
  static final SqlParser.Config PLAIN = CONFIG.withParserFactory(TwSqlParserImpl.FACTORY);

  private PgParser() {}

  private static SqlAbstractParserImpl newParser(Reader reader) {
    TwSqlParserImpl parser =
        new TwSqlParserImpl(reader) {
          @Override
          public SqlNode parseSqlStmtEof() throws Exception {
            return rewrite(super.parseSqlStmtEof());
          }

          @Override
          public SqlNodeList parseSqlStmtList() throws Exception {
            SqlNodeList list = super.parseSqlStmtList();
            SqlNodeList out = new SqlNodeList(list.getParserPosition());
            for (SqlNode n : list) {
              out.add(rewrite(n));
            }
            return out;
          }

          @Override
          public SqlNode parseSqlExpressionEof() throws Exception {
            return super.parseSqlExpressionEof().accept(new PgShuttle());
          }
        };
    if (reader instanceof SourceStringReader r) {
      parser.setOriginalSql(r.getSourceString());
    }
    return parser;
  }

  /**
   * Queries go through {@link PgShuttle}; DDL and commands are kept as parsed (a shuttle would
   * rebuild them as plain calls), their queries reach the planner as text and are parsed again.
   */
  static SqlNode rewrite(SqlNode node) {
    return node.getKind().belongsTo(SqlKind.QUERY) ? node.accept(new PgShuttle()) : node;
  }
}

/**
 * Tideway's SQL grammar, generated at build time from Calcite's {@code Parser.jj} template
 * (FreeMarker, then JavaCC; see the module README): {@link
 * dev.tideway.sql.parser.impl.TwSqlParserImpl} parses PostgreSQL/RisingWave-flavoured SQL into
 * Calcite's {@code SqlNode}s plus the AST nodes of this package: {@link SqlTwCreateTable}, {@link
 * SqlTwCreateSource}, {@link SqlTwDrop}, {@link SqlTwCommand} (SHOW, CANCEL JOBS, FLUSH, EXPLAIN,
 * transactions, ALTER MATERIALIZED VIEW ... SET) and {@link PgIntervalLiteral}. Nodes are immutable
 * once built, and every node unparses to text that parses back to an equal tree.
 */
package dev.tideway.sql.parser;

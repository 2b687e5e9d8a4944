/**
 * SQL text to statements: {@link Lexer} splits and tokenizes, {@link PgRewriter} makes the few text
 * changes left ({@code $n}, {@code E''}, client quirks), {@link PgParser} parses with Tideway's
 * generated grammar (module sql-parser) and rewrites PostgreSQL constructs in queries ({@link
 * PgShuttle}), and {@link StatementParser} turns the tree into a {@link Statement}, which the
 * session runs.
 */
package dev.tideway.frontend.sql;

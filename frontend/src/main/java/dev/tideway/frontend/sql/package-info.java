/**
 * SQL text to statements: {@link Lexer} and {@link PgRewriter} turn PostgreSQL-flavoured text into
 * what Calcite's parser accepts, {@link StatementParser} recognises the statements Calcite cannot
 * parse (SHOW, SET, FLUSH, CANCEL JOBS, CREATE SOURCE ... WITH, transactions) and parses the rest
 * with calcite-server's DDL parser into {@link Statement}s. {@link Session} runs them.
 */
package dev.tideway.frontend.sql;

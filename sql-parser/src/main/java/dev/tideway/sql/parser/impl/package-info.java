/**
 * The generated parser ({@code TwSqlParserImpl}, from {@code src/main/codegen}); use it through
 * {@code TwSqlParserImpl.FACTORY} in a Calcite {@code SqlParser.Config}. Not thread-safe: one
 * parser instance per parse, as Calcite's {@code SqlParser.create} makes.
 */
package dev.tideway.sql.parser.impl;

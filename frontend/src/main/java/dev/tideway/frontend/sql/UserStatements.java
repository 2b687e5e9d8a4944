package dev.tideway.frontend.sql;

import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.SqlState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code CREATE USER|ROLE name [WITH] option…}, {@code ALTER USER|ROLE name [WITH] option…} and
 * {@code DROP USER|ROLE [IF EXISTS] name [, …]}, parsed from tokens (Calcite has no grammar for
 * them). Options: {@code PASSWORD 'text' | PASSWORD NULL}, {@code [NO]SUPERUSER}, {@code
 * [NO]LOGIN}; PostgreSQL's other role attributes ({@code [NO]CREATEDB}, {@code [NO]CREATEROLE},
 * {@code [NO]INHERIT}, {@code [NO]REPLICATION}, {@code [NO]BYPASSRLS}) are accepted and have no
 * effect here; anything else is a syntax error naming it. Pure functions.
 */
final class UserStatements {
  private static final List<String> IGNORED =
      List.of(
          "CREATEDB",
          "NOCREATEDB",
          "CREATEROLE",
          "NOCREATEROLE",
          "INHERIT",
          "NOINHERIT",
          "REPLICATION",
          "NOREPLICATION",
          "BYPASSRLS",
          "NOBYPASSRLS");

  private UserStatements() {}

  /** Whether tokens {@code t} start a user statement ({@code CREATE USER}, {@code DROP ROLE}…). */
  static boolean matches(List<Token> t) {
    return t.size() > 1 && (t.get(1).isWord("USER") || t.get(1).isWord("ROLE"));
  }

  static Statement parse(String verb, List<Token> t) {
    int i = 2;
    if (verb.equals("DROP")) {
      boolean ifExists = false;
      if (t.size() > i + 1 && t.get(i).isWord("IF") && t.get(i + 1).isWord("EXISTS")) {
        ifExists = true;
        i += 2;
      }
      List<String> names = new ArrayList<>();
      names.add(name(t, i++));
      while (i < t.size() && t.get(i).kind() == Token.Kind.COMMA) {
        names.add(name(t, i + 1));
        i += 2;
      }
      end(t, i);
      return new Statement.UserDdl(Statement.UserDdl.Kind.DROP, names, ifExists, Map.of());
    }
    String name = name(t, i++);
    if (i < t.size() && t.get(i).isWord("WITH")) {
      i++;
    }
    Map<String, String> options = new LinkedHashMap<>();
    while (i < t.size() && t.get(i).kind() != Token.Kind.SEMI) {
      Token o = t.get(i);
      String w = o.kind() == Token.Kind.WORD ? o.text().toUpperCase(Locale.ROOT) : "";
      switch (w) {
        case "PASSWORD", "ENCRYPTED" -> {
          int v =
              w.equals("ENCRYPTED") && i + 1 < t.size() && t.get(i + 1).isWord("PASSWORD")
                  ? i + 2
                  : i + 1;
          if (v < t.size() && t.get(v).isWord("NULL")) {
            options.put("password", "");
          } else if (v < t.size()
              && (t.get(v).kind() == Token.Kind.STRING || t.get(v).kind() == Token.Kind.E_STRING)) {
            options.put("password", t.get(v).stringValue());
          } else {
            throw PgException.error(
                SqlState.SYNTAX_ERROR, "PASSWORD needs a string literal or NULL");
          }
          i = v + 1;
        }
        case "SUPERUSER", "NOSUPERUSER" -> {
          options.put("superuser", String.valueOf(w.equals("SUPERUSER")));
          i++;
        }
        case "LOGIN", "NOLOGIN" -> {
          options.put("login", String.valueOf(w.equals("LOGIN")));
          i++;
        }
        default -> {
          if (!IGNORED.contains(w)) {
            throw StatementParser.syntax(o);
          }
          i++;
        }
      }
    }
    Statement.UserDdl.Kind kind =
        verb.equals("CREATE") ? Statement.UserDdl.Kind.CREATE : Statement.UserDdl.Kind.ALTER;
    return new Statement.UserDdl(kind, List.of(name), false, options);
  }

  private static String name(List<Token> t, int i) {
    if (i >= t.size()) {
      throw PgException.error(SqlState.SYNTAX_ERROR, "syntax error at end of input");
    }
    Token n = t.get(i);
    if (n.kind() != Token.Kind.WORD && n.kind() != Token.Kind.QUOTED_IDENT) {
      throw StatementParser.syntax(n);
    }
    return n.identifier();
  }

  private static void end(List<Token> t, int i) {
    if (i < t.size() && t.get(i).kind() != Token.Kind.SEMI) {
      throw StatementParser.syntax(t.get(i));
    }
  }
}

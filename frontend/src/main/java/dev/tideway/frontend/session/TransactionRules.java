package dev.tideway.frontend.session;

import dev.tideway.frontend.sql.Statement;
import java.util.List;
import java.util.Optional;

/** What a transaction block admits: the statements it runs, and the reads it must refuse. */
final class TransactionRules {
  private TransactionRules() {}

  /**
   * A table of {@code written} that a statement reading tables ({@code reads}) may read: any such
   * table named in its text (a subquery or a join may name it too; naming it in a string literal
   * only costs a needless refusal).
   */
  static Optional<String> readsWritten(
      Statement s, boolean reads, String sql, List<String> written) {
    if (!reads) {
      return Optional.empty();
    }
    if (s instanceof Statement.Insert i) {
      sql = i.source(); // an INSERT's target is written, not read: only its source can read
    }
    String lower = sql.toLowerCase(java.util.Locale.ROOT);
    for (String name : written) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile(
                  "(?<![\\w$])"
                      + java.util.regex.Pattern.quote(name.toLowerCase(java.util.Locale.ROOT))
                      + "(?![\\w$])")
              .matcher(lower);
      if (m.find()) {
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }

  static boolean allowed(Statement s) {
    return s instanceof Statement.Query
        || s instanceof Statement.Insert
        || s instanceof Statement.CopyFrom
        || s instanceof Statement.CopyTo
        || s instanceof Statement.Update
        || s instanceof Statement.Delete
        || s instanceof Statement.Show
        || s instanceof Statement.SetVar
        || s instanceof Statement.Flush
        || s instanceof Statement.NoOp
        || s instanceof Statement.Cursor
        || s instanceof Statement.EmptyCatalogQuery
        || s instanceof Statement.PrimaryKeys
        || s instanceof Statement.Explain;
  }

  /** The command a statement's text starts with, as PostgreSQL names it in errors. */
  static String commandName(String sql) {
    String[] words = sql.strip().split("\\s+", 4);
    String name = words[0].toUpperCase(java.util.Locale.ROOT);
    if (words.length > 1
        && (name.equals("CREATE") || name.equals("DROP") || name.equals("ALTER"))) {
      name += " " + words[1].toUpperCase(java.util.Locale.ROOT);
      if (words.length > 2 && words[1].equalsIgnoreCase("MATERIALIZED")) {
        name += " " + words[2].toUpperCase(java.util.Locale.ROOT);
      }
    }
    return name;
  }
}

package dev.tideway.frontend.meta;

/** What a catalog relation is; {@link #relkind()} is its {@code pg_class.relkind}. */
public enum RelationKind {
  TABLE('r', "table"),
  MATERIALIZED_VIEW('m', "materialized view"),
  /** Sources are listed as tables in pg_class so that psql can {@code \d} them. */
  SOURCE('r', "source"),
  /** Sinks are no relation a query reads: they stay out of pg_class and the query schema. */
  SINK('r', "sink");

  private final char relkind;
  private final String sqlName;

  RelationKind(char relkind, String sqlName) {
    this.relkind = relkind;
    this.sqlName = sqlName;
  }

  public char relkind() {
    return relkind;
  }

  /** How statements and errors name it ({@code materialized view}). */
  public String sqlName() {
    return sqlName;
  }
}

package dev.tideway.protocol.catalog;

/** The kinds of catalog object. Fixed codes: never reuse or renumber one. */
public enum ObjectKind {
  DATABASE(1),
  SCHEMA(2),
  TABLE(3),
  SOURCE(4),
  MATERIALIZED_VIEW(5),
  /** The state table of an operator (aggregation, join, source offsets, backfill position). */
  INTERNAL_TABLE(6),
  /**
   * A user ({@code CREATE USER}): cluster-wide (parent 0); {@code properties} hold {@code password}
   * (a SCRAM-SHA-256 verifier in PostgreSQL's {@code rolpassword} form, never the password) and
   * {@code superuser}.
   */
  USER(7),
  /** A sink ({@code CREATE SINK}): a streaming job writing its input to an external system. */
  SINK(8);

  private final byte code;

  ObjectKind(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  public static ObjectKind fromCode(int code) {
    for (ObjectKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown catalog object kind code " + code);
  }

  /** Whether objects of this kind are created by a streaming job. */
  public boolean streaming() {
    return this == TABLE || this == SOURCE || this == MATERIALIZED_VIEW || this == SINK;
  }
}

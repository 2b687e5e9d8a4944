package dev.tideway.common.types;

/**
 * The SQL types Tideway stores and computes on. Each has a fixed byte code used in every persisted
 * and wire format: codes are never reused or renumbered, new types take new codes.
 */
public enum TypeId {
  BOOLEAN(1, "boolean"),
  SMALLINT(2, "smallint"),
  INT(3, "integer"),
  BIGINT(4, "bigint"),
  REAL(5, "real"),
  DOUBLE(6, "double precision"),
  DECIMAL(7, "numeric"),
  VARCHAR(8, "character varying"),
  BYTEA(9, "bytea"),
  DATE(10, "date"),
  TIME(11, "time without time zone"),
  TIMESTAMP(12, "timestamp without time zone"),
  TIMESTAMPTZ(13, "timestamp with time zone"),
  INTERVAL(14, "interval");

  private static final TypeId[] BY_CODE = new TypeId[16];

  static {
    for (TypeId t : values()) {
      BY_CODE[t.code] = t;
    }
  }

  private final byte code;
  private final String sqlName;

  TypeId(int code, String sqlName) {
    this.code = (byte) code;
    this.sqlName = sqlName;
  }

  /** The persisted byte code. */
  public byte code() {
    return code;
  }

  /** The PostgreSQL name, as {@code format_type} prints it. */
  public String sqlName() {
    return sqlName;
  }

  /** The type with this persisted code; fails naming the code for an unknown one. */
  public static TypeId fromCode(byte code) {
    TypeId t = code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    if (t == null) {
      throw new IllegalArgumentException("unknown type code " + code);
    }
    return t;
  }
}

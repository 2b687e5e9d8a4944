package dev.tideway.frontend.pgwire;

import dev.tideway.common.types.DataType;
import dev.tideway.common.types.TypeId;

/**
 * PostgreSQL type OIDs and lengths for Tideway's types, plus the catalog-only types clients see.
 * The OIDs are PostgreSQL's (clients hard-code them: pgjdbc picks its decoders by OID).
 */
public enum PgType {
  BOOL(16, 1, DataType.BOOLEAN),
  INT2(21, 2, DataType.SMALLINT),
  INT4(23, 4, DataType.INT),
  INT8(20, 8, DataType.BIGINT),
  FLOAT4(700, 4, DataType.REAL),
  FLOAT8(701, 8, DataType.DOUBLE),
  NUMERIC(1700, -1, DataType.DECIMAL),
  VARCHAR(1043, -1, DataType.VARCHAR),
  TEXT(25, -1, DataType.VARCHAR),
  BYTEA(17, -1, DataType.BYTEA),
  DATE(1082, 4, DataType.DATE),
  TIME(1083, 8, DataType.TIME),
  TIMESTAMP(1114, 8, DataType.TIMESTAMP),
  TIMESTAMPTZ(1184, 8, DataType.TIMESTAMPTZ),
  INTERVAL(1186, 16, DataType.INTERVAL),
  /** Catalog types: values travel as their Tideway equivalents. */
  NAME(19, 64, DataType.VARCHAR),
  CHAR(18, 1, DataType.VARCHAR),
  OID(26, 4, DataType.BIGINT),
  BPCHAR(1042, -1, DataType.VARCHAR),
  UNKNOWN(705, -2, DataType.VARCHAR);

  private final int oid;
  private final int typlen;
  private final DataType dataType;

  PgType(int oid, int typlen, DataType dataType) {
    this.oid = oid;
    this.typlen = typlen;
    this.dataType = dataType;
  }

  public int oid() {
    return oid;
  }

  /** {@code typlen}: bytes for fixed-width types, -1 for varlena. */
  public int typlen() {
    return typlen;
  }

  /** The Tideway type values of this PostgreSQL type are decoded to. */
  public DataType dataType() {
    return dataType;
  }

  /** The PostgreSQL type a Tideway type is sent as. */
  public static PgType of(DataType t) {
    return switch (t.id()) {
      case BOOLEAN -> BOOL;
      case SMALLINT -> INT2;
      case INT -> INT4;
      case BIGINT -> INT8;
      case REAL -> FLOAT4;
      case DOUBLE -> FLOAT8;
      case DECIMAL -> NUMERIC;
      case VARCHAR -> VARCHAR;
      case BYTEA -> BYTEA;
      case DATE -> DATE;
      case TIME -> TIME;
      case TIMESTAMP -> TIMESTAMP;
      case TIMESTAMPTZ -> TIMESTAMPTZ;
      case INTERVAL -> INTERVAL;
    };
  }

  /** The type with this OID, or null when Tideway does not know it. */
  public static PgType ofOid(int oid) {
    for (PgType t : values()) {
      if (t.oid == oid) {
        return t;
      }
    }
    return null;
  }

  /** The OID a Tideway type id is sent as (shortcut for {@code of(DataType.of(id)).oid()}). */
  public static int oidOf(TypeId id) {
    return of(DataType.of(id)).oid();
  }

  /** {@code atttypmod} / RowDescription typmod: numeric(p,s) is {@code ((p << 16) | s) + 4}. */
  public static int typmod(DataType t) {
    if (t.id() == TypeId.DECIMAL && t.precision() > 0) {
      return ((t.precision() << 16) | t.scale()) + 4;
    }
    return -1;
  }
}

package dev.tideway.frontend.batch;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * PostgreSQL-like typing: {@code CASE ... THEN 'a' ELSE 'bc'} is VARCHAR (not a blank-padded CHAR),
 * {@code sum(int)} is BIGINT, {@code sum(bigint)} and {@code avg(int)} are DECIMAL.
 */
public final class TwTypeSystem extends RelDataTypeSystemImpl {
  public static final TwTypeSystem INSTANCE = new TwTypeSystem();

  /**
   * PostgreSQL's bare {@code numeric} (any scale) in Calcite: a DECIMAL of this precision. It is
   * also the largest, so arithmetic over such values derives it again ({@code n * 2}, {@code n +
   * m}): every DECIMAL of this precision, or of a scale of at least {@link #UNCONSTRAINED_SCALE} (a
   * modulus derives a small precision), is unconstrained, kept with its values' own scales.
   */
  public static final int UNCONSTRAINED_PRECISION = 1000;

  /**
   * The scale Calcite gives unconstrained values it must fix a scale for (a cast to bare {@code
   * numeric} in a batch query); its trailing zeros are dropped again on output.
   */
  public static final int UNCONSTRAINED_SCALE = 32;

  @Override
  public int getMaxPrecision(SqlTypeName t) {
    return t == SqlTypeName.DECIMAL ? UNCONSTRAINED_PRECISION : super.getMaxPrecision(t);
  }

  @Override
  public int getMaxScale(SqlTypeName t) {
    return t == SqlTypeName.DECIMAL ? UNCONSTRAINED_PRECISION : super.getMaxScale(t);
  }

  @SuppressWarnings("deprecation")
  @Override
  public int getMaxNumericPrecision() {
    return UNCONSTRAINED_PRECISION;
  }

  @SuppressWarnings("deprecation")
  @Override
  public int getMaxNumericScale() {
    return UNCONSTRAINED_PRECISION;
  }

  @Override
  public int getDefaultPrecision(SqlTypeName t) {
    return t == SqlTypeName.DECIMAL ? UNCONSTRAINED_PRECISION : super.getDefaultPrecision(t);
  }

  @Override
  public int getDefaultScale(SqlTypeName t) {
    return t == SqlTypeName.DECIMAL ? UNCONSTRAINED_SCALE : super.getDefaultScale(t);
  }

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory tf, RelDataType t) {
    if (t.getSqlTypeName() == SqlTypeName.BIGINT) {
      // as in PostgreSQL: sum(bigint) is numeric, and never overflows
      return tf.createTypeWithNullability(
          tf.createSqlType(SqlTypeName.DECIMAL, UNCONSTRAINED_PRECISION, 0), t.isNullable());
    }
    if (SqlTypeUtil.isExactNumeric(t) && !SqlTypeUtil.isDecimal(t)) {
      return tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.BIGINT), t.isNullable());
    }
    return super.deriveSumType(tf, t);
  }

  /**
   * As in PostgreSQL, numeric division is bare {@code numeric}: its digits do not depend on the
   * operands' declared scales (Calcite's {@code max(6, s1 + p2 + 1)} made a view round {@code y /
   * 1.1} to 6 places while a batch query kept 16 significant digits).
   */
  @Override
  public RelDataType deriveDecimalDivideType(RelDataTypeFactory tf, RelDataType a, RelDataType b) {
    RelDataType t = super.deriveDecimalDivideType(tf, a, b);
    if (t == null || t.getSqlTypeName() != SqlTypeName.DECIMAL) {
      return t;
    }
    return tf.createTypeWithNullability(
        tf.createSqlType(SqlTypeName.DECIMAL, UNCONSTRAINED_PRECISION, UNCONSTRAINED_SCALE),
        t.isNullable());
  }

  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory tf, RelDataType t) {
    if (SqlTypeUtil.isExactNumeric(t) && !SqlTypeUtil.isDecimal(t)) {
      return tf.createTypeWithNullability(
          tf.createSqlType(SqlTypeName.DECIMAL, 19, 6), t.isNullable());
    }
    return super.deriveAvgAggType(tf, t);
  }
}

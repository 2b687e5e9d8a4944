package dev.tideway.frontend.batch;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * PostgreSQL-like typing: {@code CASE ... THEN 'a' ELSE 'bc'} is VARCHAR (not a blank-padded CHAR),
 * {@code sum(int)} is BIGINT, {@code avg(int)} is DECIMAL.
 */
public final class TwTypeSystem extends RelDataTypeSystemImpl {
  public static final TwTypeSystem INSTANCE = new TwTypeSystem();

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory tf, RelDataType t) {
    if (SqlTypeUtil.isExactNumeric(t) && !SqlTypeUtil.isDecimal(t)) {
      return tf.createTypeWithNullability(tf.createSqlType(SqlTypeName.BIGINT), t.isNullable());
    }
    return super.deriveSumType(tf, t);
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

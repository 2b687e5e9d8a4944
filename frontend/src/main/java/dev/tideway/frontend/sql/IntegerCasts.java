package dev.tideway.frontend.sql;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Casts of constants to integer types, rounded as PostgreSQL rounds them before Calcite folds them
 * (it truncates while converting): {@code 2.5::int} is 3 and {@code -2.5::int} is -3 (a numeric
 * rounds half away from zero), {@code 3.5::float8::int} is 4 and {@code 2.5::float8::int} is 2 (a
 * float rounds half to even). Casts of non-constant values are rewritten after validation, where
 * their types are known ({@code batch.PgCasts}).
 */
final class IntegerCasts {
  private static final Set<String> INTEGERS =
      Set.of("int2", "smallint", "int", "int4", "integer", "int8", "bigint");
  private static final Set<String> FLOATS =
      Set.of("float4", "real", "float8", "double", "float", "double precision");
  private static final Set<String> NUMERICS = Set.of("numeric", "decimal");

  private IntegerCasts() {}

  /** A constant of a known exactness. */
  private record Constant(BigDecimal value, boolean approximate) {}

  /** {@code CAST(rounded constant AS spec)}, or null when this is not such a cast. */
  static SqlNode fold(SqlNode operand, SqlDataTypeSpec spec, SqlParserPos p) {
    if (!INTEGERS.contains(typeName(spec))) {
      return null;
    }
    Constant c = constant(operand);
    if (c == null) {
      return null;
    }
    BigDecimal r =
        c.value().setScale(0, c.approximate() ? RoundingMode.HALF_EVEN : RoundingMode.HALF_UP);
    SqlNode literal =
        r.signum() < 0
            ? SqlStdOperatorTable.UNARY_MINUS.createCall(
                p, SqlLiteral.createExactNumeric(r.negate().toPlainString(), p))
            : SqlLiteral.createExactNumeric(r.toPlainString(), p);
    return SqlStdOperatorTable.CAST.createCall(p, literal, spec);
  }

  private static Constant constant(SqlNode n) {
    if (n instanceof SqlNumericLiteral lit) {
      BigDecimal v = lit.getValueAs(BigDecimal.class);
      return v == null ? null : new Constant(v, !lit.isExact());
    }
    if (!(n instanceof SqlCall c)) {
      return null;
    }
    if (c.getKind() == SqlKind.MINUS_PREFIX) {
      Constant in = constant(c.operand(0));
      return in == null ? null : new Constant(in.value().negate(), in.approximate());
    }
    boolean isCast =
        c.getKind() == SqlKind.CAST || c.getOperator() == SqlLibraryOperators.INFIX_CAST;
    if (isCast && c.operand(1) instanceof SqlDataTypeSpec spec) {
      Constant in = constant(c.operand(0));
      String t = typeName(spec);
      if (in == null || !(FLOATS.contains(t) || NUMERICS.contains(t))) {
        return null;
      }
      return new Constant(in.value(), FLOATS.contains(t));
    }
    return null;
  }

  private static String typeName(SqlDataTypeSpec spec) {
    List<String> names = spec.getTypeNameSpec().getTypeName().names;
    return names.get(names.size() - 1).toLowerCase(Locale.ROOT);
  }
}

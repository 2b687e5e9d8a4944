package dev.tideway.frontend.batch;

import java.math.BigDecimal;
import java.util.Set;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * PostgreSQL's rounding for casts to integer types in batch queries, where Calcite's generated code
 * truncates: a NUMERIC rounds half away from zero ({@code 2.5::numeric::int} is 3, {@code -2.5} is
 * -3) and a DOUBLE or REAL half to even, as C's {@code rint} ({@code 2.5::float8::int} is 2, {@code
 * 3.5} is 4). The streaming side's {@code CastExpression} rounds the same way, so a view and a
 * batch query over the same rows agree.
 */
final class PgCasts extends RexShuttle {
  private static final Set<SqlTypeName> INTEGERS =
      Set.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);

  private final RexBuilder rb;

  private PgCasts(RexBuilder rb) {
    this.rb = rb;
  }

  /** Calcite's standard program, after the casts of {@code rel} are rewritten. */
  static Program program() {
    return (RelOptPlanner planner,
        RelNode rel,
        RelTraitSet traits,
        java.util.List<RelOptMaterialization> materializations,
        java.util.List<RelOptLattice> lattices) ->
        Programs.standard().run(planner, rewrite(rel), traits, materializations, lattices);
  }

  /** A {@code Hook.PROGRAM} handler installing {@link #program()}. */
  static void use(org.apache.calcite.util.Holder<Program> holder) {
    holder.set(program());
  }

  static RelNode rewrite(RelNode rel) {
    PgCasts casts = new PgCasts(rel.getCluster().getRexBuilder());
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            return super.visit(other).accept(casts);
          }
        });
  }

  @Override
  public RexNode visitCall(RexCall call) {
    RexNode visited = super.visitCall(call);
    if (visited.getKind() != SqlKind.CAST
        || !(visited instanceof RexCall cast)
        || !INTEGERS.contains(cast.getType().getSqlTypeName())) {
      return visited;
    }
    RexNode x = cast.getOperands().get(0);
    RelDataType type = cast.getType();
    return switch (x.getType().getSqlTypeName()) {
      case DECIMAL -> rb.makeCast(type, rb.makeCall(SqlStdOperatorTable.ROUND, x));
      case DOUBLE, FLOAT, REAL -> rb.makeCast(type, rint(x));
      default -> visited;
    };
  }

  /** {@code x} rounded half to even: ROUND (half away from zero) except on an exact half. */
  private RexNode rint(RexNode x) {
    RexNode half = rb.makeExactLiteral(new BigDecimal("0.5"));
    RexNode two = rb.makeExactLiteral(BigDecimal.valueOf(2));
    RexNode fraction =
        rb.makeCall(
            SqlStdOperatorTable.ABS,
            rb.makeCall(
                SqlStdOperatorTable.MINUS, x, rb.makeCall(SqlStdOperatorTable.TRUNCATE, x)));
    RexNode evenHalf =
        rb.makeCall(
            SqlStdOperatorTable.MULTIPLY,
            two,
            rb.makeCall(
                SqlStdOperatorTable.ROUND, rb.makeCall(SqlStdOperatorTable.DIVIDE, x, two)));
    return rb.makeCall(
        SqlStdOperatorTable.CASE,
        rb.makeCall(SqlStdOperatorTable.EQUALS, fraction, half),
        evenHalf,
        rb.makeCall(SqlStdOperatorTable.ROUND, x));
  }
}

package dev.tideway.frontend.batch;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
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
public final class PgCasts extends RexShuttle {
  /**
   * Calcite's cast rules plus PostgreSQL's {@code boolean → integer} ({@code TRUE::int} is 1):
   * validation runs with it ({@code SqlTypeCoercionRule.THREAD_PROVIDERS}), and {@link #visitCall}
   * turns such a cast into a CASE the code generator implements.
   */
  public static final org.apache.calcite.sql.type.SqlTypeCoercionRule COERCION = coercion();

  private static org.apache.calcite.sql.type.SqlTypeCoercionRule coercion() {
    java.util.Map<SqlTypeName, com.google.common.collect.ImmutableSet<SqlTypeName>> map =
        new java.util.HashMap<>(
            org.apache.calcite.sql.type.SqlTypeCoercionRule.instance().getTypeMapping());
    map.put(
        SqlTypeName.INTEGER,
        com.google.common.collect.ImmutableSet.<SqlTypeName>builder()
            .addAll(map.get(SqlTypeName.INTEGER))
            .add(SqlTypeName.BOOLEAN)
            .build());
    return org.apache.calcite.sql.type.SqlTypeCoercionRule.instance(map);
  }

  private static final Set<SqlTypeName> INTEGERS =
      Set.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER, SqlTypeName.BIGINT);

  /** Integer arithmetic that fails on overflow, as PostgreSQL's does (Calcite's wraps). */
  private static final java.util.Map<
          org.apache.calcite.sql.SqlOperator, org.apache.calcite.sql.SqlOperator>
      CHECKED =
          java.util.Map.of(
              SqlStdOperatorTable.PLUS, SqlStdOperatorTable.CHECKED_PLUS,
              SqlStdOperatorTable.MINUS, SqlStdOperatorTable.CHECKED_MINUS,
              SqlStdOperatorTable.MULTIPLY, SqlStdOperatorTable.CHECKED_MULTIPLY,
              SqlStdOperatorTable.UNARY_MINUS, SqlStdOperatorTable.CHECKED_UNARY_MINUS);

  private static final Set<SqlTypeName> FLOATS =
      Set.of(SqlTypeName.DOUBLE, SqlTypeName.FLOAT, SqlTypeName.REAL);

  private final RexBuilder rb;

  private PgCasts(RexBuilder rb) {
    this.rb = rb;
  }

  /**
   * Calcite's standard program, after sub-queries became joins and the casts and join keys of
   * {@code rel} are rewritten (so the joins an {@code IN} or {@code EXISTS} turns into compare
   * numeric keys by value too).
   */
  static Program program() {
    return (RelOptPlanner planner,
        RelNode rel,
        RelTraitSet traits,
        List<RelOptMaterialization> materializations,
        List<RelOptLattice> lattices) -> {
      RelNode r =
          Programs.subQuery(org.apache.calcite.rel.metadata.DefaultRelMetadataProvider.INSTANCE)
              .run(planner, rel, traits, materializations, lattices);
      r = Programs.decorrelate().run(planner, r, traits, materializations, lattices);
      // equalities written in WHERE (FROM a, b WHERE a.n = b.n) become join conditions now, so
      // the rewrite sees them as join keys, as the planner will
      r =
          Programs.hep(
                  List.of(
                      org.apache.calcite.rel.rules.CoreRules.FILTER_INTO_JOIN,
                      org.apache.calcite.rel.rules.CoreRules.JOIN_CONDITION_PUSH),
                  true,
                  org.apache.calcite.rel.metadata.DefaultRelMetadataProvider.INSTANCE)
              .run(planner, r, traits, materializations, lattices);
      return Programs.standard().run(planner, rewrite(r), traits, materializations, lattices);
    };
  }

  /** A {@code Hook.PROGRAM} handler installing {@link #program()}. */
  static void use(org.apache.calcite.util.Holder<Program> holder) {
    holder.set(program());
  }

  /**
   * {@code rel} with PostgreSQL's casts to integers, and with integer arithmetic checked: {@code
   * 2147483647 + 1} fails with 22003 instead of wrapping to a negative number.
   */
  static RelNode rewrite(RelNode rel) {
    PgCasts casts = new PgCasts(rel.getCluster().getRexBuilder());
    return rel.accept(
        new RelHomogeneousShuttle() {
          @Override
          public RelNode visit(RelNode other) {
            RelNode n = super.visit(other).accept(casts);
            return n instanceof Aggregate a
                ? decimalSums(a)
                : n instanceof org.apache.calcite.rel.core.Join j ? valueKeys(j) : n;
          }
        });
  }

  /**
   * {@code j} comparing its numeric and floating-point equality keys by value: both sides of each
   * {@code =} rounded to one scale ({@code 4 = 4.0}, Java's {@code BigDecimal.equals} tells them
   * apart in a hash or merge join), {@code -0.0} made {@code 0.0}. The keys are computed below the
   * join, so it stays a hash join. Found by {@code tideway fuzz}: a batch join of an int with a
   * numeric column lost the pairs a view over the same join held.
   */
  private static RelNode valueKeys(org.apache.calcite.rel.core.Join j) {
    RexBuilder rb = j.getCluster().getRexBuilder();
    RexShuttle keys =
        new RexShuttle() {
          @Override
          public RexNode visitCall(RexCall call) {
            RexCall c = (RexCall) super.visitCall(call);
            boolean equality =
                c.getKind() == SqlKind.EQUALS || c.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
            if (!equality || c.getOperands().size() != 2) {
              return c;
            }
            RexNode a = valueKey(rb, c.getOperands().get(0));
            RexNode b = valueKey(rb, c.getOperands().get(1));
            return a == c.getOperands().get(0) && b == c.getOperands().get(1)
                ? c
                : c.clone(c.getType(), List.of(a, b));
          }
        };
    RexNode condition = j.getCondition().accept(keys);
    if (condition.equals(j.getCondition())) {
      return j;
    }
    org.apache.calcite.rel.core.Join rewritten =
        j.copy(
            j.getTraitSet(),
            condition,
            j.getLeft(),
            j.getRight(),
            j.getJoinType(),
            j.isSemiJoinDone());
    return org.apache.calcite.plan.RelOptUtil.pushDownJoinConditions(
        rewritten,
        org.apache.calcite.rel.core.RelFactories.LOGICAL_BUILDER.create(j.getCluster(), null));
  }

  /** {@code x} as a key equal for equal values: numerics at one scale, floats without -0.0. */
  private static RexNode valueKey(RexBuilder rb, RexNode x) {
    RelDataType t = x.getType();
    if (t.getSqlTypeName() == SqlTypeName.DECIMAL) {
      return rb.makeCall(
          t,
          SqlStdOperatorTable.ROUND,
          List.of(x, rb.makeExactLiteral(BigDecimal.valueOf(TwTypeSystem.UNCONSTRAINED_SCALE))));
    }
    if (FLOATS.contains(t.getSqlTypeName())) {
      RexNode zero = rb.makeZeroLiteral(t);
      return rb.makeCall(
          t,
          SqlStdOperatorTable.CASE,
          List.of(rb.makeCall(SqlStdOperatorTable.EQUALS, x, zero), zero, x));
    }
    return x;
  }

  /**
   * {@code a} with the integer arguments of its DECIMAL sums ({@code sum(bigint)} is numeric, as in
   * PostgreSQL) cast to that DECIMAL first: Calcite's generated code cannot add a long to one.
   */
  private static RelNode decimalSums(Aggregate a) {
    RexBuilder rb = a.getCluster().getRexBuilder();
    RelNode input = a.getInput();
    List<RexNode> exprs = new ArrayList<>();
    for (int i = 0; i < input.getRowType().getFieldCount(); i++) {
      exprs.add(rb.makeInputRef(input, i));
    }
    List<AggregateCall> calls = new ArrayList<>();
    boolean changed = false;
    // unconstrained numeric keys group by value, not by scale: 0 and 0.000 are one group (Java's
    // BigDecimal.equals tells them apart); they come out with their trailing zeros dropped
    for (int key : a.getGroupSet()) {
      RelDataType t = input.getRowType().getFieldList().get(key).getType();
      if (t.getSqlTypeName() == SqlTypeName.DECIMAL
          && (t.getPrecision() >= TwTypeSystem.UNCONSTRAINED_PRECISION
              || t.getScale() >= TwTypeSystem.UNCONSTRAINED_SCALE)) {
        exprs.set(
            key,
            rb.makeCall(
                t,
                SqlStdOperatorTable.ROUND,
                List.of(
                    exprs.get(key),
                    rb.makeExactLiteral(BigDecimal.valueOf(TwTypeSystem.UNCONSTRAINED_SCALE)))));
        changed = true;
      } else if (FLOATS.contains(t.getSqlTypeName())) {
        // -0.0 and 0.0 are one group, as in PostgreSQL (Java's Double.equals tells them apart)
        RexNode x = exprs.get(key);
        RexNode zero = rb.makeZeroLiteral(t);
        exprs.set(
            key,
            rb.makeCall(
                t,
                SqlStdOperatorTable.CASE,
                List.of(rb.makeCall(SqlStdOperatorTable.EQUALS, x, zero), zero, x)));
        changed = true;
      }
    }
    for (AggregateCall c : a.getAggCallList()) {
      boolean sum =
          c.getAggregation().getKind() == SqlKind.SUM
              || c.getAggregation().getKind() == SqlKind.SUM0;
      if (sum
          && c.getArgList().size() == 1
          && c.getType().getSqlTypeName() == SqlTypeName.DECIMAL
          && INTEGERS.contains(
              input
                  .getRowType()
                  .getFieldList()
                  .get(c.getArgList().get(0))
                  .getType()
                  .getSqlTypeName())) {
        RelDataType target =
            a.getCluster().getTypeFactory().createTypeWithNullability(c.getType(), true);
        exprs.add(rb.makeCast(target, exprs.get(c.getArgList().get(0))));
        calls.add(c.withArgList(List.of(exprs.size() - 1)));
        changed = true;
      } else {
        calls.add(c);
      }
    }
    if (!changed) {
      return a;
    }
    RelNode projected =
        org.apache.calcite.rel.logical.LogicalProject.create(
            input, List.of(), exprs, (List<String>) null, java.util.Set.of());
    return a.copy(a.getTraitSet(), projected, a.getGroupSet(), a.getGroupSets(), calls);
  }

  /** A scalar or IN subquery is planned later, from its own tree: rewrite that tree too. */
  @Override
  public RexNode visitSubQuery(org.apache.calcite.rex.RexSubQuery subQuery) {
    RexNode visited = super.visitSubQuery(subQuery);
    return visited instanceof org.apache.calcite.rex.RexSubQuery sq
        ? sq.clone(rewrite(sq.rel))
        : visited;
  }

  @Override
  public RexNode visitCall(RexCall call) {
    RexNode visited = super.visitCall(call);
    if (visited instanceof RexCall arith
        && INTEGERS.contains(arith.getType().getSqlTypeName())
        && CHECKED.containsKey(arith.getOperator())) {
      return rb.makeCall(arith.getType(), CHECKED.get(arith.getOperator()), arith.getOperands());
    }
    if (visited instanceof RexCall like
        && like.getKind() == SqlKind.LIKE
        && like.getOperands().size() == 2) {
      // PostgreSQL's LIKE escapes with a backslash unless told otherwise; Calcite's has no escape
      return rb.makeCall(
          like.getType(),
          like.getOperator(),
          List.of(like.getOperands().get(0), like.getOperands().get(1), rb.makeLiteral("\\")));
    }
    if (visited instanceof RexCall round
        && round.getOperator().getName().equalsIgnoreCase("ROUND")
        && round.getOperands().size() == 1
        && FLOATS.contains(round.getType().getSqlTypeName())) {
      // PostgreSQL rounds a float half to even (C's rint): round(2.5::float8) is 2; Calcite's is 3
      return rb.makeCast(round.getType(), rint(round.getOperands().get(0)));
    }
    if (visited instanceof RexCall mod
        && mod.getKind() == SqlKind.MOD
        && INTEGERS.contains(mod.getType().getSqlTypeName())
        && !sameTypes(mod.getOperands())) {
      // Calcite's code for bigint % int calls mod(BigDecimal, int): 3 µs a row instead of 10 ns.
      // Computed in the wider type; the remainder fits the divisor's type (the call's type).
      RelDataType wide = null;
      for (RexNode op : mod.getOperands()) {
        RelDataType t = op.getType();
        wide = wide == null || t.getPrecision() > wide.getPrecision() ? t : wide;
      }
      List<RexNode> ops = new ArrayList<>();
      for (RexNode op : mod.getOperands()) {
        ops.add(
            rb.makeCast(
                rb.getTypeFactory().createTypeWithNullability(wide, op.getType().isNullable()),
                op));
      }
      return rb.makeCast(mod.getType(), rb.makeCall(mod.getOperator(), ops));
    }
    if (visited instanceof RexCall div
        && (div.getKind() == SqlKind.DIVIDE || div.getKind() == SqlKind.MOD)
        && FLOATS.contains(div.getType().getSqlTypeName())) {
      return rb.makeCall(
          div.getType(),
          div.getOperator(),
          List.of(div.getOperands().get(0), nonZero(div.getOperands().get(1))));
    }
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
      case BOOLEAN ->
          rb.makeCast(
              type,
              rb.makeCall(
                  SqlStdOperatorTable.CASE,
                  x,
                  rb.makeExactLiteral(BigDecimal.ONE, type),
                  rb.makeCall(SqlStdOperatorTable.NOT, x),
                  rb.makeExactLiteral(BigDecimal.ZERO, type),
                  rb.makeNullLiteral(type)));
      default -> visited;
    };
  }

  private static boolean sameTypes(List<RexNode> ops) {
    for (RexNode op : ops) {
      if (op.getType().getSqlTypeName() != ops.get(0).getType().getSqlTypeName()) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code y}, or a failing integer division when it is zero: a float divided by zero is an error
   * in PostgreSQL ({@code division by zero}), where Java answers Infinity or NaN.
   */
  private RexNode nonZero(RexNode y) {
    RexNode zero = rb.makeExactLiteral(BigDecimal.ZERO);
    RelDataType bigint = rb.getTypeFactory().createSqlType(SqlTypeName.BIGINT);
    RexNode asLong = rb.makeCast(bigint, y, true, false);
    RexNode fail =
        rb.makeCast(
            y.getType(), rb.makeCall(SqlStdOperatorTable.DIVIDE, asLong, asLong), true, false);
    return rb.makeCall(
        SqlStdOperatorTable.CASE, rb.makeCall(SqlStdOperatorTable.EQUALS, y, zero), fail, y);
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

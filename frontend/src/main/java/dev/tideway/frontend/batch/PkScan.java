package dev.tideway.frontend.batch;

import dev.tideway.frontend.meta.PkRange;
import java.util.List;
import java.util.function.Consumer;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * A scan of a {@link StoredTable} that reads only the primary-key range its {@link #hint} implies.
 * The hint is a copy of the conjuncts of the filter right above the scan; that filter stays in the
 * plan (so it is compiled once with the plan, and a prepared statement's cached plan keeps it) and
 * the range is derived from the hint each time the scan is opened, with that execution's bound
 * parameters ({@link PkRanges#derive}). The range only narrows what is read: the filter above
 * decides the result, so a reader that returns more than the range is still correct.
 *
 * <p>Immutable (a planner node); {@link Reader} runs on the executing thread.
 */
public final class PkScan extends TableScan implements EnumerableRel {
  /** The conjuncts of the filter above, over this scan's fields. */
  final List<RexNode> hint;

  PkScan(RelOptCluster cluster, RelOptTable table, List<RexNode> hint) {
    super(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), List.of(), table);
    this.hint = List.copyOf(hint);
  }

  /** Adds {@link #RULE} to every planner Calcite creates on this thread until closed. */
  static org.apache.calcite.runtime.Hook.Closeable register() {
    Consumer<RelOptPlanner> add = p -> p.addRule(RULE);
    return org.apache.calcite.runtime.Hook.PLANNER.addThread(add);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return super.explainTerms(pw).item("pkHint", hint);
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    // cheaper than a full scan under the same filter, so the planner keeps the ranged read
    return super.computeSelfCost(planner, mq).multiplyBy(0.1);
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    int fields = getRowType().getFieldCount();
    JavaRowFormat format = fields == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY;
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), format, false);
    StoredTable t = table.unwrap(StoredTable.class);
    Expression reader = implementor.stash(new Reader(t, hint), Reader.class);
    Expression rows = Expressions.call(reader, fields == 1 ? "scalars" : "rows", DataContext.ROOT);
    return implementor.result(physType, Blocks.toBlock(rows));
  }

  /**
   * What the generated code calls when the scan opens: derives the range from the hint and the
   * execution's parameters and reads it. Public for the generated class; stateless.
   */
  public static final class Reader {
    private final StoredTable table;
    private final List<RexNode> hint;

    Reader(StoredTable table, List<RexNode> hint) {
      this.table = table;
      this.hint = hint;
    }

    /** The rows (one array per row) in the range the hint gives with {@code root}'s parameters. */
    public Enumerable<Object[]> rows(DataContext root) {
      return StoredTable.cancellable(table.scan(table.pkRange(hint, root)), root);
    }

    /** The same for a one-column table, one value per row (Calcite's scalar row format). */
    public Enumerable<Object> scalars(DataContext root) {
      return rows(root).select(v -> v[0]);
    }
  }

  /**
   * {@code Filter(scan of a StoredTable)} → {@code Filter(PkScan)}: the same filter over a scan
   * carrying its conjuncts as the range hint. Fires only when some conjunct could make a range (a
   * comparison of a pk column with a literal or parameter), so other scans stay plain.
   */
  static final RelOptRule RULE =
      new RelOptRule(
          RelOptRule.operandJ(
              LogicalFilter.class,
              null,
              f -> true,
              RelOptRule.operandJ(
                  LogicalTableScan.class,
                  null,
                  s -> s.getTable().unwrap(StoredTable.class) != null,
                  RelOptRule.none())),
          "PkScanRule") {
        @Override
        public void onMatch(RelOptRuleCall call) {
          LogicalFilter filter = call.rel(0);
          LogicalTableScan scan = call.rel(1);
          StoredTable t = scan.getTable().unwrap(StoredTable.class);
          List<RexNode> conjuncts = RexUtil.flattenAnd(List.of(filter.getCondition()));
          if (!t.mayRange(conjuncts)) {
            return;
          }
          PkScan ranged = new PkScan(scan.getCluster(), scan.getTable(), conjuncts);
          call.transformTo(filter.copy(filter.getTraitSet(), ranged, filter.getCondition()));
        }
      };

  /** The range this scan reads when the parameters are unknown (EXPLAIN). */
  PkRange explainRange() {
    return table.unwrap(StoredTable.class).pkRange(hint, null);
  }
}

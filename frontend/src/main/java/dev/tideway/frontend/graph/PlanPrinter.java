package dev.tideway.frontend.graph;

import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.Fragmenter;
import dev.tideway.common.plan.StreamFragmentGraph;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.Schema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Renders stream plans as EXPLAIN prints them: one operator per line, inputs indented below, with
 * the parameters that matter for reviewing a plan (keys, expressions, state-table keys, the
 * materialized table's pk). Column references print as {@code $i} with the input's name when it
 * helps ({@code $3:price}).
 */
public final class PlanPrinter {
  private PlanPrinter() {}

  /** The plan tree, one line per operator. */
  public static List<String> lines(StreamPlanNode root) {
    List<String> out = new ArrayList<>();
    print(root, "", out);
    return out;
  }

  /** The plan followed by its fragments and the edges between them. */
  public static List<String> explain(StreamPlanNode root) {
    List<String> out = lines(root);
    StreamFragmentGraph g = Fragmenter.fragment(root);
    out.add("Fragments: " + g.fragments().size());
    List<StreamFragmentGraph.Fragment> sorted = new ArrayList<>(g.fragments());
    sorted.sort((a, b) -> Integer.compare(a.fragmentId(), b.fragmentId()));
    for (StreamFragmentGraph.Fragment f : sorted) {
      StringBuilder sb =
          new StringBuilder("  Fragment " + f.fragmentId() + ": " + f.root().node().kindName());
      if (f.singleton()) {
        sb.append(" (singleton)");
      }
      for (StreamFragmentGraph.Edge e : g.edges()) {
        if (e.upstreamFragmentId() == f.fragmentId()) {
          sb.append(" -> ").append(e.downstreamFragmentId()).append(' ').append(e.kind());
          sb.append(e.distKeys().isEmpty() ? "" : e.distKeys().toString());
        }
      }
      out.add(sb.toString());
    }
    return out;
  }

  private static void print(StreamPlanNode n, String indent, List<String> out) {
    Schema in = n.inputs().isEmpty() ? n.outputSchema() : n.inputs().get(0).outputSchema();
    out.add(indent + "Stream" + n.node().kindName() + " " + describe(n.node(), in, n));
    for (StreamPlanNode c : n.inputs()) {
      print(c, indent + "  ", out);
    }
  }

  /**
   * The MIN/MAX calls that keep their input values in a state table (retractable), if any; the
   * others keep their value in the group row alone.
   */
  private static String valueTables(StreamNode.HashAgg a, Schema in) {
    if (a.callStateTables().isEmpty()) {
      return "";
    }
    return ", value_tables: ["
        + a.callStateTables().keySet().stream()
            .sorted()
            .map(i -> agg(a.aggCalls().get(i), in))
            .collect(Collectors.joining(", "))
        + "]";
  }

  private static String describe(StreamNode body, Schema in, StreamPlanNode n) {
    if (body instanceof StreamNode.StreamScan s) {
      return "{ table: "
          + s.upstreamTableId()
          + ", columns: "
          + names(n.outputSchema())
          + ", backfill: "
          + s.backfillKind()
          + " }";
    }
    if (body instanceof StreamNode.Source s) {
      return "{ connector: "
          + s.connector().name().toLowerCase(Locale.ROOT)
          + ", columns: "
          + names(n.outputSchema())
          + " }";
    }
    if (body instanceof StreamNode.Project p) {
      return "{ exprs: ["
          + p.exprs().stream().map(e -> expr(e, in)).collect(Collectors.joining(", "))
          + "] }";
    }
    if (body instanceof StreamNode.Filter f) {
      return "{ predicate: " + expr(f.predicate(), in) + " }";
    }
    if (body instanceof StreamNode.HashAgg a) {
      return "{ group: "
          + refs(a.groupKeys(), in)
          + ", aggs: ["
          + a.aggCalls().stream().map(c -> agg(c, in)).collect(Collectors.joining(", "))
          + "]"
          + valueTables(a, in)
          + " }";
    }
    if (body instanceof StreamNode.PaneHopAgg p) {
      return "{ group: "
          + refs(p.groupKeys(), in)
          + ", pane: "
          + ref(p.paneColumn(), in)
          + ", partial: "
          + ref(p.partialColumn(), in)
          + ", slide: "
          + p.slide()
          + ", size: "
          + p.size()
          + " }";
    }
    if (body instanceof StreamNode.LocalAgg a) {
      return "{ group: "
          + refs(a.groupKeys(), in)
          + ", partial aggs: ["
          + a.aggCalls().stream().map(c -> agg(c, in)).collect(Collectors.joining(", "))
          + "] }";
    }
    if (body instanceof StreamNode.HashJoin j) {
      Schema right = n.inputs().get(1).outputSchema();
      List<String> eq = new ArrayList<>();
      for (int i = 0; i < j.leftKeys().size(); i++) {
        eq.add(ref(j.leftKeys().get(i), in) + " = " + ref(j.rightKeys().get(i), right));
      }
      String cond = j.condition().map(c -> ", condition: " + expr(c, n.outputSchema())).orElse("");
      String growing =
          j.growing().isEmpty() ? "" : ", growing: " + refs(j.growing(), n.outputSchema());
      return "{ type: "
          + j.joinType()
          + ", predicate: "
          + String.join(" AND ", eq)
          + cond
          + growing
          + " }";
    }
    if (body instanceof StreamNode.Exchange e) {
      return "{ dist: " + e.kind() + (e.distKeys().isEmpty() ? "" : refs(e.distKeys(), in)) + " }";
    }
    if (body instanceof StreamNode.TumbleWindow w) {
      return "{ time_col: " + ref(w.timeColumn(), in) + ", size: " + w.size() + " }";
    }
    if (body instanceof StreamNode.HopWindow w) {
      return "{ time_col: "
          + ref(w.timeColumn(), in)
          + ", slide: "
          + w.slide()
          + ", size: "
          + w.size()
          + " }";
    }
    if (body instanceof StreamNode.Materialize m) {
      return materialize(m.table());
    }
    if (body instanceof StreamNode.Merge m) {
      return "{ upstream_fragment: " + m.upstreamFragmentId() + " }";
    }
    return "{ }";
  }

  private static String materialize(TableDesc t) {
    String pk =
        t.pk().stream()
            .map(o -> t.columns().get(o.index()).name() + (o.descending() ? " DESC" : ""))
            .collect(Collectors.joining(", "));
    return "{ table: " + t.name() + ", columns: " + names(t.schema()) + ", pk: [" + pk + "] }";
  }

  private static String names(Schema s) {
    return "[" + s.fields().stream().map(f -> f.name()).collect(Collectors.joining(", ")) + "]";
  }

  private static String refs(List<Integer> idx, Schema in) {
    return "[" + idx.stream().map(i -> ref(i, in)).collect(Collectors.joining(", ")) + "]";
  }

  private static String ref(int i, Schema in) {
    return i < in.size() ? in.field(i).name() : "$" + i;
  }

  private static String agg(AggCall c, Schema in) {
    String args =
        c.args().isEmpty()
            ? "*"
            : c.args().stream().map(a -> ref(a.index(), in)).collect(Collectors.joining(", "));
    return c.kind().name().toLowerCase(Locale.ROOT).replace("count_star", "count")
        + "("
        + (c.distinct() ? "DISTINCT " : "")
        + args
        + ")";
  }

  /** An expression with column names from {@code in}. */
  public static String expr(ExprNode e, Schema in) {
    if (e instanceof ExprNode.InputRef r) {
      return ref(r.index(), in);
    }
    if (e instanceof ExprNode.Literal l) {
      Object v = l.value();
      if (v == null) {
        return "null:" + l.type().sqlName();
      }
      return v instanceof String s
          ? "'" + s + "'"
          : v instanceof BigDecimal b ? b.toPlainString() : v.toString();
    }
    if (e instanceof ExprNode.Cast c) {
      return expr(c.input(), in) + "::" + c.targetType().sqlName();
    }
    ExprNode.FunctionCall f = (ExprNode.FunctionCall) e;
    return f.kind().name().toLowerCase(Locale.ROOT)
        + "("
        + f.args().stream().map(a -> expr(a, in)).collect(Collectors.joining(", "))
        + ")";
  }
}

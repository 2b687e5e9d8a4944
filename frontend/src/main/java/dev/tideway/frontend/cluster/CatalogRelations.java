package dev.tideway.frontend.cluster;

import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.PlanCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The frontend's relations, read from meta's catalog: a table's or view's storage layout is the
 * {@code Materialize} table of its job's plan (decoded from the fragment graph), so the frontend
 * reads exactly the layout the compute nodes write. Decoded layouts are cached per catalog id (a
 * relation's layout never changes while its id lives).
 *
 * <p>Thread-safe.
 */
public final class CatalogRelations {
  private final PlanCodec codec;
  private final Map<Integer, Relation> cache = new ConcurrentHashMap<>();

  public CatalogRelations(PlanCodec codec) {
    this.codec = codec;
  }

  /** Every table, source and materialized view of {@code state}, in id order. */
  public List<Relation> relations(CatalogState state) {
    return of(state, false);
  }

  /** The relations a query may read: sources, and tables and views whose job is readable. */
  public List<Relation> readable(CatalogState s) {
    List<Relation> out = new ArrayList<>();
    for (Relation r : relations(s)) {
      CatalogObject o = s.objects().get(r.id());
      dev.tideway.protocol.catalog.JobRecord job = o == null ? null : s.jobs().get(o.jobId());
      if (job == null || job.status().readable() || r.kind() == RelationKind.SOURCE) {
        out.add(r);
      }
    }
    return out;
  }

  /** Every sink of {@code state} (its table is its log store), in id order. */
  public List<Relation> sinks(CatalogState state) {
    return of(state, true);
  }

  private List<Relation> of(CatalogState state, boolean sinks) {
    List<Relation> out = new ArrayList<>();
    for (CatalogObject o : state.objects().values()) {
      RelationKind kind = kindOf(o.kind());
      if (kind == null || (kind == RelationKind.SINK) != sinks) {
        continue;
      }
      Relation r = cache.get(o.id());
      if (r == null || !r.name().equals(o.name())) {
        Optional<Relation> built = build(state, o, kind);
        if (built.isEmpty()) {
          continue;
        }
        r = built.get();
        cache.put(o.id(), r);
      }
      out.add(r);
    }
    if (!sinks) {
      cache.keySet().retainAll(state.objects().keySet());
    }
    return out;
  }

  private static RelationKind kindOf(ObjectKind k) {
    return switch (k) {
      case TABLE -> RelationKind.TABLE;
      case MATERIALIZED_VIEW -> RelationKind.MATERIALIZED_VIEW;
      case SOURCE -> RelationKind.SOURCE;
      case SINK -> RelationKind.SINK;
      default -> null;
    };
  }

  private Optional<Relation> build(CatalogState state, CatalogObject o, RelationKind kind) {
    FragmentGraph g = state.fragments().get(o.jobId());
    if (kind == RelationKind.SOURCE) {
      return sourceRelation(o);
    }
    if (g == null) {
      return Optional.empty();
    }
    TableDesc table = null;
    Map<String, String> props = new TreeMap<>();
    List<Integer> dependsOn = new ArrayList<>(o.dependsOn());
    for (FragmentGraph.Fragment f : g.fragments()) {
      StreamPlanNode plan = codec.decode(f.body());
      TableDesc t = CatalogState.materialized(plan, o.id());
      if (t != null) {
        table = t;
        if (plan.node() instanceof dev.tideway.common.plan.SinkNode k) {
          k.properties().forEach((key, v) -> props.put(key, v)); // a sink's options
          props.keySet().removeIf(key -> key.startsWith("_"));
        }
      }
      scans(plan, dependsOn);
    }
    if (table == null) {
      return Optional.empty();
    }
    Set<String> hidden = kind == RelationKind.SINK ? Set.of() : hiddenOf(table, o.properties());
    return Optional.of(
        new Relation(table, kind, hidden, o.definition(), props, Optional.empty(), dependsOn));
  }

  /**
   * The catalog property under which a relation's hidden columns are kept (their indices, comma
   * separated): a view's stream-key columns that its query does not select.
   */
  static final String HIDDEN_COLUMNS = "hidden_column_indices";

  /** The property recording {@code r}'s hidden columns (empty when it has none). */
  static Map<String, String> hiddenProperty(Relation r) {
    List<String> idx = new ArrayList<>();
    for (int i = 0; i < r.table().columns().size(); i++) {
      if (r.hiddenColumns().contains(r.table().columns().get(i).name())) {
        idx.add(Integer.toString(i));
      }
    }
    return idx.isEmpty() ? Map.of() : Map.of(HIDDEN_COLUMNS, String.join(",", idx));
  }

  /** The columns users do not see: the hidden {@code _row_id} key and those the catalog names. */
  private static Set<String> hiddenOf(TableDesc t, Map<String, String> props) {
    Set<String> out = new java.util.HashSet<>();
    t.columns().stream()
        .map(c -> c.name())
        .filter(n -> n.equals(Relation.ROW_ID))
        .forEach(out::add);
    String idx = props.getOrDefault(HIDDEN_COLUMNS, "");
    for (String i : idx.isEmpty() ? new String[0] : idx.split(",")) {
      out.add(t.columns().get(Integer.parseInt(i)).name());
    }
    return out;
  }

  private Optional<Relation> sourceRelation(CatalogObject o) {
    List<Integer> key = o.pk();
    int last = o.columns().size() - 1;
    if (key.isEmpty() && last >= 0 && o.columns().get(last).name().equals(Relation.ROW_ID)) {
      key = List.of(last); // a shared source's job names no key: its rows' key is the row id
    }
    List<ColumnOrder> pk = key.stream().map(ColumnOrder::asc).toList();
    List<Integer> dist = o.distributionKey().isEmpty() ? key : o.distributionKey();
    TableDesc t = new TableDesc(o.id(), o.name(), o.columns(), pk, dist, true, false);
    Map<String, String> props = new TreeMap<>(o.properties());
    if (o.jobId() == o.id()) {
      props.put(Relation.SHARED_SOURCE, "true");
    }
    return Optional.of(
        new Relation(
            t,
            RelationKind.SOURCE,
            hiddenOf(t, Map.of()),
            o.definition(),
            props,
            Optional.empty(),
            o.dependsOn()));
  }

  private static void scans(StreamPlanNode n, List<Integer> out) {
    if (n.node() instanceof StreamNode.StreamScan s && !out.contains(s.upstreamTableId())) {
      out.add(s.upstreamTableId());
    }
    n.inputs().forEach(in -> scans(in, out));
  }
}

package dev.tideway.frontend.plan;

import dev.tideway.common.plan.AggCall;
import dev.tideway.common.plan.AggKind;
import dev.tideway.common.plan.BackfillKind;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.plan.ExprNode;
import dev.tideway.common.plan.JoinType;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import dev.tideway.frontend.batch.StoredTable;
import dev.tideway.frontend.meta.MetaClient;
import dev.tideway.frontend.meta.Relation;
import dev.tideway.frontend.meta.RelationKind;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.sql.SqlTypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableFunctionScan;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * A logical {@link RelNode} to a stream plan. Each converted subtree ({@link Sub}) carries its
 * physical schema (Calcite's fields plus hidden stream-key columns that projections would otherwise
 * drop), where each Calcite field sits in it, its stream key and its hash distribution. Exchanges
 * go in only where an operator needs a distribution its input does not have (hash on the group key
 * for aggregation, on the join key for joins, single for global aggregation).
 *
 * <p>Not thread-safe: one builder per statement. It allocates state-table ids from the meta client.
 */
public final class StreamPlanBuilder {
  /** A planned materialized view. */
  public record Planned(
      StreamPlanNode root, TableDesc table, Set<String> hidden, List<Integer> dependsOn) {}

  /**
   * A planned sub-tree: its root, where Calcite's fields are in its output, its stream key, its
   * distribution, and whether it only ever inserts (a source, and what filters, projects, windows
   * or inner-joins only such inputs): state over it needs no retraction (see {@link #join}). {@code
   * growing} are the output columns whose value only grows: a row is never deleted, and each update
   * of it is a {@code U-}/{@code U+} pair, adjacent in one chunk, whose new value is at least the
   * old one (a count over an append-only input, carried by projections and by exchanges that do not
   * hash on it), so a MAX over such a column needs no value table (see {@link #aggregate}).
   */
  private record Sub(
      StreamPlanNode node,
      int[] fieldMap,
      List<Integer> streamKey,
      Dist dist,
      boolean appendOnly,
      Set<Integer> growing) {
    Sub(StreamPlanNode node, int[] fieldMap, List<Integer> streamKey, Dist dist) {
      this(node, fieldMap, streamKey, dist, false);
    }

    Sub(
        StreamPlanNode node,
        int[] fieldMap,
        List<Integer> streamKey,
        Dist dist,
        boolean appendOnly) {
      this(node, fieldMap, streamKey, dist, appendOnly, Set.of());
    }

    Schema schema() {
      return node.outputSchema();
    }

    int width() {
      return schema().size();
    }
  }

  private final MetaClient meta;
  private final String mvName;
  private final Set<Integer> dependsOn = new LinkedHashSet<>();
  private int nextOperatorId = 1;

  private StreamPlanBuilder(MetaClient meta, String mvName) {
    this.meta = meta;
    this.mvName = mvName;
  }

  /** Plans the view {@code mvName} (table id {@code mvId}) computing {@code rel}. */
  public static Planned plan(RelNode rel, int mvId, String mvName, MetaClient meta) {
    StreamPlanBuilder b = new StreamPlanBuilder(meta, mvName);
    Sub root = b.normalize(b.convert(stripSort(rel)), rel);
    return b.materialize(root, rel.getRowType().getFieldCount(), mvId);
  }

  private static RelNode stripSort(RelNode rel) {
    if (rel instanceof Sort s) {
      if (s.fetch != null || s.offset != null) {
        throw PgException.unsupported("LIMIT/OFFSET in a materialized view");
      }
      return s.getInput();
    }
    return rel;
  }

  private int nextId() {
    return nextOperatorId++;
  }

  private Sub convert(RelNode rel) {
    if (rel instanceof TableScan s) {
      return scan(s);
    }
    if (rel instanceof Filter f) {
      return filter(f);
    }
    if (rel instanceof Project p) {
      return project(p);
    }
    if (rel instanceof Aggregate a) {
      return aggregate(a);
    }
    if (rel instanceof Join j) {
      return join(j);
    }
    if (rel instanceof TableFunctionScan tf) {
      return window(tf);
    }
    String what = rel.getRelTypeName().replace("Logical", "").toUpperCase(Locale.ROOT);
    throw PgException.unsupported(what + " in a materialized view");
  }

  private Sub scan(TableScan s) {
    StoredTable t = s.getTable().unwrap(StoredTable.class);
    if (t == null) {
      throw PgException.unsupported(
          "scanning " + s.getTable().getQualifiedName() + " in a materialized view");
    }
    Relation r = t.relation();
    dependsOn.add(r.id());
    List<Integer> out = new ArrayList<>();
    for (int i : r.visibleIndices()) {
      out.add(i);
    }
    int visible = out.size();
    for (int k : r.table().pkIndices()) {
      if (!out.contains(k)) {
        out.add(k);
      }
    }
    List<Field> fields = new ArrayList<>();
    for (int i : out) {
      fields.add(r.table().columns().get(i).field());
    }
    Schema schema = new Schema(fields);
    List<Integer> key = new ArrayList<>();
    for (int k : r.table().pkIndices()) {
      key.add(out.indexOf(k));
    }
    List<Integer> dist = new ArrayList<>();
    for (int k : r.table().distributionKey()) {
      dist.add(out.indexOf(k));
    }
    StreamNode body;
    if (r.kind() == RelationKind.SOURCE) {
      body = SourceBackfills.read(r, this::stateTable);
      StreamPlanNode src = StreamPlanNode.leaf(nextId(), body, r.table().schema());
      // a source actor emits the rows of its splits, whatever their key's vnodes (the hidden
      // _row_id is made from split and offset): keyed state over it needs an exchange
      Dist d = Dist.ANY;
      if (out.equals(range(r.table().columns().size()))) {
        return new Sub(src, identity(visible), key, d, true);
      }
      int[] proj = out.stream().mapToInt(Integer::intValue).toArray();
      List<ExprNode> exprs = new ArrayList<>();
      for (int i : proj) {
        exprs.add(new ExprNode.InputRef(i, r.table().types().get(i)));
      }
      StreamPlanNode p = StreamPlanNode.unary(nextId(), new StreamNode.Project(exprs), src, schema);
      return new Sub(p, identity(visible), key, d, true);
    }
    List<Field> bf = new ArrayList<>();
    bf.add(new Field("vnode", DataType.SMALLINT));
    for (int k : key) {
      bf.add(fields.get(k));
    }
    bf.add(new Field("row_count", DataType.BIGINT));
    bf.add(new Field("finished", DataType.BOOLEAN));
    body =
        new StreamNode.StreamScan(
            r.id(),
            out,
            BackfillKind.NO_SHUFFLE,
            stateTable("backfill", bf, List.of(0), List.of()));
    return new Sub(
        StreamPlanNode.leaf(nextId(), body, schema),
        identity(visible),
        key,
        dist.isEmpty() ? Dist.ANY : Dist.hash(dist));
  }

  private TableDesc stateTable(
      String what, List<Field> fields, List<Integer> pk, List<Integer> dist) {
    return stateTable(what, fields, pk, dist, false);
  }

  private TableDesc stateTable(
      String what, List<Field> fields, List<Integer> pk, List<Integer> dist, boolean appendOnly) {
    List<ColumnDesc> cols = new ArrayList<>();
    for (int i = 0; i < fields.size(); i++) {
      cols.add(new ColumnDesc(i, fields.get(i).name(), fields.get(i).type()));
    }
    return new TableDesc(
        meta.allocateId(),
        "__internal_" + mvName + "_" + what + "_" + nextOperatorId,
        cols,
        pk.stream().map(ColumnOrder::asc).toList(),
        dist,
        appendOnly,
        false);
  }

  private static int[] identity(int n) {
    int[] m = new int[n];
    for (int i = 0; i < n; i++) {
      m[i] = i;
    }
    return m;
  }

  private Sub filter(Filter f) {
    Sub in = convert(f.getInput());
    ExprNode cond =
        new ExprConverter(in.fieldMap(), in.schema(), f.getCluster().getRexBuilder())
            .convert(f.getCondition());
    StreamPlanNode n =
        StreamPlanNode.unary(nextId(), new StreamNode.Filter(cond), in.node(), in.schema());
    return new Sub(n, in.fieldMap(), in.streamKey(), in.dist(), in.appendOnly());
  }

  private Sub project(Project p) {
    Sub in = convert(p.getInput());
    ExprConverter conv =
        new ExprConverter(in.fieldMap(), in.schema(), p.getCluster().getRexBuilder());
    List<ExprNode> exprs = new ArrayList<>();
    for (RexNode e : p.getProjects()) {
      exprs.add(conv.convert(e));
    }
    List<String> names = new ArrayList<>(p.getRowType().getFieldNames());
    return projectWithKey(in, exprs, names);
  }

  /** A Project of {@code exprs} that also carries the input's stream key (appended, hidden). */
  private Sub projectWithKey(Sub in, List<ExprNode> exprs, List<String> names) {
    int visible = exprs.size();
    exprs = new ArrayList<>(exprs);
    List<Integer> key = new ArrayList<>();
    for (int k : in.streamKey()) {
      int at = indexOfRef(exprs, k);
      if (at < 0) {
        exprs.add(new ExprNode.InputRef(k, in.schema().type(k)));
        names.add(unique(in.schema().field(k).name(), names));
        at = exprs.size() - 1;
      }
      key.add(at);
    }
    List<Integer> dist = new ArrayList<>();
    for (int d : in.dist().keys()) {
      int at = indexOfRef(exprs, d);
      if (at < 0) {
        dist = null;
        break;
      }
      dist.add(at);
    }
    List<Field> fields = new ArrayList<>();
    for (int i = 0; i < exprs.size(); i++) {
      fields.add(new Field(names.get(i), exprs.get(i).returnType()));
    }
    StreamPlanNode n =
        StreamPlanNode.unary(
            nextId(), new StreamNode.Project(exprs), in.node(), new Schema(fields));
    Dist d =
        in.dist().single()
            ? Dist.SINGLE
            : dist == null || dist.isEmpty() ? Dist.ANY : Dist.hash(dist);
    Set<Integer> growing = new HashSet<>();
    for (int i = 0; i < exprs.size(); i++) {
      if (exprs.get(i) instanceof ExprNode.InputRef r && in.growing().contains(r.index())) {
        growing.add(i);
      }
    }
    return new Sub(n, identity(visible), key, d, in.appendOnly(), Set.copyOf(growing));
  }

  private static int indexOfRef(List<ExprNode> exprs, int col) {
    for (int i = 0; i < exprs.size(); i++) {
      if (exprs.get(i) instanceof ExprNode.InputRef r && r.index() == col) {
        return i;
      }
    }
    return -1;
  }

  private static String unique(String name, List<String> taken) {
    String n = name;
    for (int i = 1; taken.contains(n); i++) {
      n = name + "#" + i;
    }
    return n;
  }

  private Sub exchange(Sub in, Dist want) {
    StreamNode.Exchange e =
        want.single()
            ? new StreamNode.Exchange(DispatcherKind.SIMPLE, List.of())
            : new StreamNode.Exchange(DispatcherKind.HASH, want.keys());
    StreamPlanNode n = StreamPlanNode.unary(nextId(), e, in.node(), in.schema());
    // an update keeps its stream key, so hashing on stream key columns keeps its halves together;
    // hashing on another column (a growing one, or one an update may also change) may split them
    boolean keepsPairs = in.streamKey().containsAll(want.keys());
    return new Sub(
        n,
        in.fieldMap(),
        in.streamKey(),
        want,
        in.appendOnly(),
        keepsPairs ? in.growing() : Set.of());
  }

  /**
   * A join input that would put a {@code StreamScan} into the join's fragment, moved behind an
   * exchange on its own distribution (rows stay where they are). Two scans of one table in one
   * actor (a self-join on the key the table is hashed by) would both read channel (table actor →
   * join actor), one id for two inputs, and their barriers never align; and a join reads a scan's
   * live input by blocking on it. Behind exchanges a join's inputs are merges, which poll over the
   * actor's shared doorbell, so one table feeding both sides cannot stall the join.
   */
  private Sub ownFragmentIfScanning(Sub in) {
    return scansInFragment(in.node()) ? exchange(in, in.dist()) : in;
  }

  private static boolean scansInFragment(StreamPlanNode n) {
    if (n.node() instanceof StreamNode.StreamScan) {
      return true;
    }
    if (n.node() instanceof StreamNode.Exchange) {
      return false;
    }
    for (StreamPlanNode in : n.inputs()) {
      if (scansInFragment(in)) {
        return true;
      }
    }
    return false;
  }

  /** The input hashed so that equal {@code keys} meet (any non-empty subset of them will do). */
  private Sub hashedOn(Sub in, List<Integer> keys) {
    if (in.dist().isHash() && new HashSet<>(keys).containsAll(in.dist().keys())) {
      return in;
    }
    return exchange(in, Dist.hash(keys));
  }

  private Sub aggregate(Aggregate a) {
    if (a.getGroupType() != Aggregate.Group.SIMPLE) {
      throw PgException.unsupported("GROUPING SETS, ROLLUP and CUBE");
    }
    Sub in = convert(a.getInput());
    List<Integer> groups = new ArrayList<>();
    for (int g : a.getGroupSet()) {
      groups.add(in.fieldMap()[g]);
    }
    Sub panes = paneCount(a, in, groups);
    if (panes != null) {
      return panes;
    }
    in =
        groups.isEmpty()
            ? (in.dist().single() ? in : exchange(in, Dist.SINGLE))
            : hashedOn(in, groups);
    List<AggCall> calls = new ArrayList<>();
    for (AggregateCall c : a.getAggCallList()) {
      calls.add(aggCall(c, in));
    }
    List<Field> fields = new ArrayList<>();
    List<RelDataTypeField> outNames = a.getRowType().getFieldList();
    for (int i = 0; i < groups.size(); i++) {
      fields.add(new Field(outNames.get(i).getName(), in.schema().type(groups.get(i))));
    }
    for (int i = 0; i < calls.size(); i++) {
      fields.add(new Field(outNames.get(groups.size() + i).getName(), calls.get(i).returnType()));
    }
    List<Field> state = new ArrayList<>(fields);
    state.add(new Field("_row_count", DataType.BIGINT));
    List<Integer> keyIdx = range(groups.size());
    TableDesc inter = stateTable("agg", state, keyIdx, keyIdx);
    Map<Integer, TableDesc> callTables = new HashMap<>();
    for (int i = 0; i < calls.size(); i++) {
      // MIN/MAX over an input that only inserts keep their value in the group row alone, and so
      // does a MAX of a column that only grows (not a group column: its update stays in a group)
      if (calls.get(i).kind().needsInputState()
          && !in.appendOnly()
          && !growingMax(calls.get(i), in, groups)) {
        List<Field> cf = new ArrayList<>(fields.subList(0, groups.size()));
        cf.add(new Field("value", calls.get(i).args().get(0).type()));
        for (int k : in.streamKey()) {
          cf.add(new Field("key_" + cf.size(), in.schema().type(k)));
        }
        callTables.put(i, stateTable("agg_call" + i, cf, range(cf.size()), keyIdx));
      }
    }
    StreamNode.HashAgg body = new StreamNode.HashAgg(groups, calls, inter, callTables);
    StreamPlanNode n = StreamPlanNode.unary(nextId(), body, in.node(), new Schema(fields));
    // the output is placed as the input was: by the group columns the input is hashed on (a
    // subset of the group keys), at their output positions
    Dist outDist = Dist.SINGLE;
    if (!groups.isEmpty()) {
      List<Integer> placed = new ArrayList<>();
      for (int k : in.dist().keys()) {
        placed.add(groups.indexOf(k));
      }
      outDist = Dist.hash(placed);
    }
    // a count over an input that only inserts only grows: its group is never deleted; so does a
    // MAX over such an input, or of a column that only grows (whose rows are never deleted either)
    Set<Integer> growing = new HashSet<>();
    for (int i = 0; i < calls.size(); i++) {
      AggKind k = calls.get(i).kind();
      boolean count = k == AggKind.COUNT || k == AggKind.COUNT_STAR;
      boolean max = k == AggKind.MAX && (in.appendOnly() || growingMax(calls.get(i), in, groups));
      if ((in.appendOnly() && count) || max) {
        growing.add(groups.size() + i);
      }
    }
    return new Sub(n, identity(fields.size()), keyIdx, outDist, false, Set.copyOf(growing));
  }

  /**
   * {@code count(*)} over a HOP window of an append-only input, grouped by {@code window_start}
   * (and maybe {@code window_end}) and other input columns, planned per pane (Flink's window
   * slicing): {@code TUMBLE(time, slide) → LocalAgg(count(*) group by keys, pane_start) → exchange
   * on the keys → PaneHopAgg → Project} to the aggregate's columns. The state keeps one count per
   * (keys, pane) instead of one per (keys, window), and the exchange carries one partial per group
   * and flush instead of one row per input row and window. Null when the aggregate is not of that
   * shape (then it is planned as a HashAgg over the HOP-expanded rows).
   */
  private Sub paneCount(Aggregate a, Sub in, List<Integer> groups) {
    if (!(in.node().node() instanceof StreamNode.HopWindow hop)
        || !in.appendOnly()
        || a.getAggCallList().isEmpty()) {
      return null;
    }
    StreamPlanNode source = in.node().inputs().get(0);
    int width = source.outputSchema().size();
    int windowStart = width;
    int windowEnd = width + 1;
    if (!groups.contains(windowStart)
        || source.outputSchema().type(hop.timeColumn()).id() != TypeId.TIMESTAMP) {
      return null;
    }
    List<Integer> keys = new ArrayList<>();
    for (int g : groups) {
      if (g < width) {
        keys.add(g);
      } else if (g != windowStart && g != windowEnd) {
        return null;
      }
    }
    if (keys.isEmpty()) {
      return null;
    }
    for (AggregateCall c : a.getAggCallList()) {
      if (c.getAggregation().getKind() != SqlKind.COUNT
          || !c.getArgList().isEmpty()
          || c.isDistinct()
          || c.filterArg >= 0) {
        return null;
      }
    }
    Schema src = source.outputSchema();
    DataType ts = DataType.TIMESTAMP;
    List<Field> tumbled = new ArrayList<>(src.fields());
    tumbled.add(new Field("pane_start", ts));
    tumbled.add(new Field("pane_end", ts));
    StreamPlanNode tumble =
        StreamPlanNode.unary(
            nextId(),
            new StreamNode.TumbleWindow(hop.timeColumn(), hop.slide()),
            source,
            new Schema(tumbled));
    List<Integer> localKeys = new ArrayList<>(keys);
    localKeys.add(width); // pane_start
    List<Field> partialFields = new ArrayList<>();
    for (int k : localKeys) {
      partialFields.add(tumbled.get(k));
    }
    partialFields.add(new Field("partial", DataType.BIGINT));
    StreamPlanNode local =
        StreamPlanNode.unary(
            nextId(),
            new StreamNode.LocalAgg(localKeys, List.of(AggCall.countStar())),
            tumble,
            new Schema(partialFields));
    List<Integer> keyCols = range(keys.size());
    StreamPlanNode shuffled =
        StreamPlanNode.unary(
            nextId(),
            new StreamNode.Exchange(DispatcherKind.HASH, keyCols),
            local,
            local.outputSchema());
    List<Field> counted = new ArrayList<>(partialFields.subList(0, keys.size()));
    counted.add(new Field("window_start", ts));
    counted.add(new Field("window_end", ts));
    counted.add(new Field("count", DataType.BIGINT));
    List<Field> state = new ArrayList<>(partialFields.subList(0, keys.size() + 1));
    state.add(new Field("count", DataType.BIGINT));
    TableDesc table = stateTable("pane_count", state, range(keys.size() + 1), keyCols);
    StreamPlanNode paneAgg =
        StreamPlanNode.unary(
            nextId(),
            new StreamNode.PaneHopAgg(
                keyCols, keys.size(), keys.size() + 1, hop.slide(), hop.size(), table),
            shuffled,
            new Schema(counted));
    // the aggregate's columns: its group columns in order, then one count per call
    List<ExprNode> exprs = new ArrayList<>();
    List<Integer> placed = new ArrayList<>();
    for (int g : groups) {
      int col = g == windowStart ? keys.size() : g == windowEnd ? keys.size() + 1 : keys.indexOf(g);
      exprs.add(new ExprNode.InputRef(col, counted.get(col).type()));
    }
    for (int k = 0; k < keys.size(); k++) {
      placed.add(groups.indexOf(keys.get(k)));
    }
    Set<Integer> growing = new HashSet<>();
    for (int i = 0; i < a.getAggCallList().size(); i++) {
      exprs.add(new ExprNode.InputRef(keys.size() + 2, DataType.BIGINT));
      growing.add(groups.size() + i);
    }
    List<Field> outFields = new ArrayList<>();
    List<RelDataTypeField> outNames = a.getRowType().getFieldList();
    for (int i = 0; i < exprs.size(); i++) {
      outFields.add(
          new Field(outNames.get(i).getName(), ((ExprNode.InputRef) exprs.get(i)).type()));
    }
    StreamPlanNode project =
        StreamPlanNode.unary(
            nextId(), new StreamNode.Project(exprs), paneAgg, new Schema(outFields));
    return new Sub(
        project,
        identity(outFields.size()),
        range(groups.size()),
        Dist.hash(placed),
        false,
        Set.copyOf(growing));
  }

  /**
   * A MAX whose argument is a column of {@code in} that only grows, grouped by columns of {@code
   * in}'s stream key only: an update keeps its stream key, so its {@code U-}/{@code U+} pair stays
   * in one group (grouped by another column, which an update may change, the pair may move).
   */
  private static boolean growingMax(AggCall call, Sub in, List<Integer> groups) {
    return call.kind() == AggKind.MAX
        && call.args().size() == 1
        && in.growing().contains(call.args().get(0).index())
        && in.streamKey().containsAll(groups);
  }

  private static List<Integer> range(int n) {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  private static AggCall aggCall(AggregateCall c, Sub in) {
    if (c.filterArg >= 0) {
      throw PgException.unsupported("FILTER (WHERE ...) on aggregates");
    }
    DataType ret = SqlTypes.toDataType(c.getType());
    List<ExprNode.InputRef> args = new ArrayList<>();
    for (int a : c.getArgList()) {
      int p = in.fieldMap()[a];
      args.add(new ExprNode.InputRef(p, in.schema().type(p)));
    }
    AggKind kind =
        switch (c.getAggregation().getKind()) {
          case COUNT -> args.isEmpty() ? AggKind.COUNT_STAR : AggKind.COUNT;
          case SUM, SUM0 -> AggKind.SUM;
          case MIN -> AggKind.MIN;
          case MAX -> AggKind.MAX;
          case AVG -> AggKind.AVG;
          default ->
              throw PgException.unsupported(
                  "aggregate "
                      + c.getAggregation().getName().toLowerCase(Locale.ROOT)
                      + " in a materialized view");
        };
    if (args.size() > kind.argCount()) {
      throw PgException.unsupported("multi-argument " + kind.name().toLowerCase(Locale.ROOT));
    }
    return new AggCall(kind, args, ret, c.isDistinct());
  }

  private Sub join(Join j) {
    if (j.getJoinType() != JoinRelType.INNER) {
      throw PgException.unsupported(j.getJoinType().name() + " JOIN (only inner equi-joins)");
    }
    JoinInfo ji = j.analyzeCondition();
    if (ji.leftKeys.isEmpty()) {
      throw PgException.unsupported("a join without an equality condition between its inputs");
    }
    Sub left = convert(j.getLeft());
    Sub right = convert(j.getRight());
    List<Integer> lk = new ArrayList<>();
    List<Integer> rk = new ArrayList<>();
    for (int i = 0; i < ji.leftKeys.size(); i++) {
      lk.add(left.fieldMap()[ji.leftKeys.get(i)]);
      rk.add(right.fieldMap()[ji.rightKeys.get(i)]);
    }
    left = hashedOn(left, lk);
    // equal join keys must meet in one actor: the right side is hashed on the columns paired with
    // the left's hash columns, in their order (hashedOn alone may keep each side on a different
    // subset of its keys, e.g. bids re-hashed by (auction, price) but a max already by auction)
    List<Integer> paired = new ArrayList<>();
    for (int k : left.dist().keys()) {
      paired.add(rk.get(lk.indexOf(k)));
    }
    if (!(right.dist().isHash() && right.dist().keys().equals(paired))) {
      right = exchange(right, Dist.hash(paired));
    }
    left = ownFragmentIfScanning(left);
    right = ownFragmentIfScanning(right);
    int lw = left.width();
    int[] map = new int[left.fieldMap().length + right.fieldMap().length];
    for (int i = 0; i < left.fieldMap().length; i++) {
      map[i] = left.fieldMap()[i];
    }
    for (int i = 0; i < right.fieldMap().length; i++) {
      map[left.fieldMap().length + i] = lw + right.fieldMap()[i];
    }
    List<Field> fields = new ArrayList<>(left.schema().fields());
    fields.addAll(right.schema().fields());
    Schema out = new Schema(fields);
    RexNode rest = ji.getRemaining(j.getCluster().getRexBuilder());
    Optional<ExprNode> cond =
        rest.isAlwaysTrue()
            ? Optional.empty()
            : Optional.of(
                new ExprConverter(map, out, j.getCluster().getRexBuilder()).convert(rest));
    // a side that only inserts is stored by identity with blind writes (HashJoinExecutor)
    TableDesc lt =
        stateTable(
            "join_left",
            left.schema().fields(),
            joinStateKey(lk, left.streamKey()),
            lk,
            left.appendOnly());
    TableDesc rt =
        stateTable(
            "join_right",
            right.schema().fields(),
            joinStateKey(rk, right.streamKey()),
            rk,
            right.appendOnly());
    // the executor keeps only the rows of a side that a growing column of the other may still
    // let match (q5's counts at or above their window's maximum), which needs the other side's
    // value under a join key to be one row that only grows: its join key is its stream key (an
    // update keeps its stream key, so it stays under its join key)
    List<Integer> growing = new ArrayList<>();
    if (Set.copyOf(lk).equals(Set.copyOf(left.streamKey()))) {
      growing.addAll(new TreeSet<>(left.growing()));
    }
    if (Set.copyOf(rk).equals(Set.copyOf(right.streamKey()))) {
      for (int g : new TreeSet<>(right.growing())) {
        growing.add(lw + g);
      }
    }
    StreamNode.HashJoin body =
        new StreamNode.HashJoin(JoinType.INNER, lk, rk, cond, lt, rt, growing);
    StreamPlanNode n = new StreamPlanNode(nextId(), body, List.of(left.node(), right.node()), out);
    // when neither side's key holds its join key, an update that changes a join key moves the row
    // to another join actor: the join key joins the output key, so its delete and insert differ
    boolean keyed = left.streamKey().containsAll(lk) || right.streamKey().containsAll(rk);
    List<Integer> key =
        keyed ? new ArrayList<>(left.streamKey()) : joinStateKey(lk, left.streamKey());
    right.streamKey().forEach(k -> key.add(lw + k));
    // rows are placed by the left's hash columns, which keep their positions in the output
    return new Sub(n, map, key, left.dist(), left.appendOnly() && right.appendOnly());
  }

  private static List<Integer> joinStateKey(List<Integer> joinKey, List<Integer> streamKey) {
    List<Integer> out = new ArrayList<>(new LinkedHashSet<>(joinKey));
    for (int k : streamKey) {
      if (!out.contains(k)) {
        out.add(k);
      }
    }
    return out;
  }

  private Sub window(TableFunctionScan tf) {
    RexCall call = (RexCall) tf.getCall();
    String fn = call.getOperator().getName().toUpperCase(Locale.ROOT);
    if (!fn.equals("TUMBLE") && !fn.equals("HOP")) {
      throw PgException.unsupported(
          "table function " + fn.toLowerCase(Locale.ROOT) + " in a materialized view");
    }
    Sub in = convert(tf.getInputs().get(0));
    int timeField = -1;
    List<Interval> intervals = new ArrayList<>();
    for (RexNode o : call.getOperands()) {
      if (o instanceof RexCall d && d.getKind() == SqlKind.DESCRIPTOR) {
        timeField = ((RexInputRef) d.getOperands().get(0)).getIndex();
      } else if (o instanceof RexLiteral l) {
        intervals.add(ExprConverter.intervalOf(l));
      }
    }
    int time = in.fieldMap()[timeField];
    DataType tt = in.schema().type(time);
    StreamNode body =
        fn.equals("TUMBLE")
            ? new StreamNode.TumbleWindow(time, intervals.get(0))
            : new StreamNode.HopWindow(time, intervals.get(0), intervals.get(1));
    List<Field> fields = new ArrayList<>(in.schema().fields());
    int w = fields.size();
    fields.add(new Field("window_start", tt));
    fields.add(new Field("window_end", tt));
    StreamPlanNode n = StreamPlanNode.unary(nextId(), body, in.node(), new Schema(fields));
    int[] map = new int[in.fieldMap().length + 2];
    System.arraycopy(in.fieldMap(), 0, map, 0, in.fieldMap().length);
    map[map.length - 2] = w;
    map[map.length - 1] = w + 1;
    List<Integer> key = new ArrayList<>(in.streamKey());
    if (fn.equals("HOP")) {
      key.add(w);
    }
    return new Sub(n, map, key, in.dist(), in.appendOnly());
  }

  /** Puts Calcite's output columns first, in order and with their names, key columns after. */
  private Sub normalize(Sub root, RelNode rel) {
    List<String> names = new ArrayList<>(rel.getRowType().getFieldNames());
    boolean ok = true;
    for (int i = 0; i < root.fieldMap().length; i++) {
      ok &= root.fieldMap()[i] == i && root.schema().field(i).name().equals(names.get(i));
    }
    if (ok) {
      return root;
    }
    List<ExprNode> exprs = new ArrayList<>();
    for (int p : root.fieldMap()) {
      exprs.add(new ExprNode.InputRef(p, root.schema().type(p)));
    }
    return projectWithKey(root, exprs, names);
  }

  private Planned materialize(Sub root, int visible, int mvId) {
    List<Integer> key = root.streamKey();
    // an empty key: at most one row (say a join of two global aggregates), kept on one actor
    if (key.isEmpty()
        ? root.dist().isHash()
        : !(root.dist().isHash() && key.containsAll(root.dist().keys()))) {
      root = exchange(root, key.isEmpty() ? Dist.SINGLE : Dist.hash(key));
    }
    List<ColumnDesc> cols = new ArrayList<>();
    Set<String> hidden = new HashSet<>();
    for (int i = 0; i < root.width(); i++) {
      Field f = root.schema().field(i);
      cols.add(new ColumnDesc(i, f.name(), f.type()));
      if (i >= visible) {
        hidden.add(f.name());
      }
    }
    List<Integer> dist = root.dist().isHash() ? root.dist().keys() : key;
    TableDesc table =
        new TableDesc(
            mvId, mvName, cols, key.stream().map(ColumnOrder::asc).toList(), dist, false, false);
    StreamPlanNode m =
        StreamPlanNode.unary(
            nextId(), new StreamNode.Materialize(table), root.node(), root.schema());
    return new Planned(m, table, hidden, List.copyOf(dependsOn));
  }
}

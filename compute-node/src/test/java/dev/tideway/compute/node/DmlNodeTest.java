package dev.tideway.compute.node;

import static dev.tideway.compute.actor.TestBarriers.barrier;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.barrier.control.InjectBarrier;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkBuilder;
import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.ColumnOrder;
import dev.tideway.common.plan.StreamNode;
import dev.tideway.common.plan.StreamPlanNode;
import dev.tideway.common.plan.TableDesc;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VirtualNode;
import dev.tideway.common.vnode.VnodeHasher;
import dev.tideway.protocol.compute.ActorSpec;
import dev.tideway.protocol.compute.ComputeEvent;
import dev.tideway.protocol.compute.ComputeRequest;
import dev.tideway.protocol.compute.ControlMessage;
import dev.tideway.protocol.compute.DmlRouter;
import dev.tideway.storage.api.KeyRange;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.StateIterator;
import dev.tideway.storage.api.Storage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * DML into a table on two nodes: the table job {@code Dml → Materialize} runs as actor 31 on node A
 * (even vnodes) and actor 32 on node B (odd vnodes); the test plays meta and the frontend, routing
 * rows per actor with {@link DmlRouter#route} and sending {@code WriteDml} over Artery. The
 * "materialize" is the test job's collecting sink, so the test sees which rows each actor emitted
 * and after how many barriers.
 */
@ExtendWith(TwoNodeCluster.Shared.class)
class DmlNodeTest {
  static final int TABLE = 300;
  static final int ROW_ID_TABLE = 301;
  static final int ACTOR_A = 31;
  static final int ACTOR_B = 32;

  private static TwoNodeCluster cluster;

  @BeforeAll
  static void start() {
    cluster = TwoNodeCluster.Shared.cluster();
  }

  @BeforeEach
  void reset() throws Exception {
    cluster.reset();
    TestJob.ROW_EPOCH.clear();
    TestJob.SINK_ROWS.clear();
  }

  static TableDesc table() {
    return table(TABLE);
  }

  static TableDesc table(int id) {
    return new TableDesc(
        id,
        "t",
        List.of(new ColumnDesc(0, "k", DataType.BIGINT), new ColumnDesc(1, "v", DataType.BIGINT)),
        List.of(ColumnOrder.asc(0)),
        List.of(0),
        false,
        false);
  }

  /** {@code CREATE TABLE r (v BIGINT)}: the hidden {@code _row_id} is the key. */
  static TableDesc rowIdTable() {
    return new TableDesc(
        ROW_ID_TABLE,
        "r",
        List.of(
            new ColumnDesc(0, "v", DataType.BIGINT), new ColumnDesc(1, "_row_id", DataType.BIGINT)),
        List.of(ColumnOrder.asc(1)),
        List.of(1),
        false,
        false);
  }

  static StreamPlanNode tablePlan(TableDesc t) {
    StreamPlanNode dml =
        StreamPlanNode.leaf(1, new StreamNode.Dml(t.tableId(), t.schema()), t.schema());
    return StreamPlanNode.unary(2, new StreamNode.Materialize(t), dml, t.schema());
  }

  static BitSet vnodes(int parity) {
    BitSet b = new BitSet(VirtualNode.COUNT);
    for (int v = parity; v < VirtualNode.COUNT; v += 2) {
      b.set(v);
    }
    return b;
  }

  /** Vnode owners of the table's two actors: even vnodes on A, odd on B. */
  static int[] owners() {
    int[] owner = new int[VirtualNode.COUNT];
    for (int v = 0; v < owner.length; v++) {
      owner[v] = v % 2 == 0 ? ACTOR_A : ACTOR_B;
    }
    return owner;
  }

  /** Builds the table's actors on both nodes and passes barrier 1 (as meta's Add would). */
  static void buildTable(TableDesc t) throws Exception {
    Map<Integer, String> nodes = Map.of(ACTOR_A, cluster.a.address(), ACTOR_B, cluster.b.address());
    send(
        cluster.controlA,
        new ActorSpec(ACTOR_A, 30, tablePlan(t), vnodes(0), Map.of(), List.of(), List.of()),
        nodes);
    send(
        cluster.controlB,
        new ActorSpec(ACTOR_B, 30, tablePlan(t), vnodes(1), Map.of(), List.of(), List.of()),
        nodes);
    barrierAndWait(1);
  }

  private static void send(
      ActorRef<ControlMessage> control, ActorSpec spec, Map<Integer, String> nodes)
      throws Exception {
    long req = cluster.nextRequestId();
    control.tell(new ComputeRequest.BuildActors(req, List.of(spec), nodes, cluster.meta));
    assertThat(cluster.take()).isInstanceOf(ComputeEvent.Ack.class);
  }

  static void barrierAndWait(int i) throws Exception {
    barrierAndCollect(i);
  }

  /** Injects barrier {@code i} on both nodes; returns their completions by node id. */
  static Map<Integer, ComputeEvent.Completed> barrierAndCollect(int i) throws Exception {
    Barrier b = barrier(cluster.epochBase, i);
    cluster.controlA.tell(
        new ComputeRequest.Inject(
            new InjectBarrier(
                1, cluster.generation, b, new int[] {ACTOR_A}, new int[] {ACTOR_A}, new int[0]),
            cluster.meta));
    cluster.controlB.tell(
        new ComputeRequest.Inject(
            new InjectBarrier(
                2, cluster.generation, b, new int[] {ACTOR_B}, new int[] {ACTOR_B}, new int[0]),
            cluster.meta));
    Map<Integer, ComputeEvent.Completed> out = new java.util.HashMap<>();
    for (int n = 0; n < 2; n++) {
      ComputeEvent e = cluster.take();
      assertThat(e).as("completion of barrier %s", i).isInstanceOf(ComputeEvent.Completed.class);
      out.put(e.nodeId(), (ComputeEvent.Completed) e);
    }
    return out;
  }

  /** Writes the rows through the actors owning them; returns the events (one per chunk). */
  static List<ComputeEvent> write(TableDesc t, int rowIdIndex, List<Row> deletes, List<Row> ins)
      throws Exception {
    int[] dist = t.distributionKey().stream().mapToInt(Integer::intValue).toArray();
    Map<Integer, List<StreamChunk>> parts =
        DmlRouter.route(t.types(), dist, rowIdIndex, owners(), 1024, deletes, ins);
    List<ComputeEvent> out = new ArrayList<>();
    for (var e : parts.entrySet()) {
      ActorRef<ControlMessage> control =
          e.getKey() == ACTOR_A ? cluster.controlA : cluster.controlB;
      for (StreamChunk chunk : e.getValue()) {
        control.tell(
            new ComputeRequest.WriteDml(
                cluster.nextRequestId(), t.tableId(), e.getKey(), chunk, cluster.meta));
        out.add(cluster.take());
      }
    }
    return out;
  }

  /** {@code rows} as inserts in one chunk of columns {@code types}. */
  static StreamChunk inserts(List<DataType> types, List<Row> rows) {
    StreamChunkBuilder b = new StreamChunkBuilder(types, rows.size());
    rows.forEach(r -> b.append(Op.INSERT, r));
    return b.build();
  }

  static List<Row> rows(long from, long to) {
    List<Row> out = new ArrayList<>();
    for (long k = from; k < to; k++) {
      out.add(Row.of(k, k * 10));
    }
    return out;
  }

  @Test
  void writtenRowsReachTheActorOwningTheirVnodeInTheEpochOfTheNextBarrier() throws Exception {
    buildTable(table());
    List<ComputeEvent> acks = write(table(), -1, List.of(), rows(0, 100));
    assertThat(acks).allMatch(e -> e instanceof ComputeEvent.DmlWritten);
    assertThat(acks.stream().mapToLong(e -> ((ComputeEvent.DmlWritten) e).rows()).sum())
        .isEqualTo(100);
    long epoch1 = barrier(cluster.epochBase, 1).curr();
    assertThat(acks)
        .as("each ack names the generation and the epoch its rows joined (after barrier 1)")
        .allMatch(
            e ->
                ((ComputeEvent.DmlWritten) e).generation() == cluster.generation
                    && ((ComputeEvent.DmlWritten) e).epoch() == epoch1);
    barrierAndWait(2);

    VnodeHasher hasher = new VnodeHasher(table().types(), new int[] {0});
    List<Row> atA = TestJob.SINK_ROWS.get(ACTOR_A);
    List<Row> atB = TestJob.SINK_ROWS.get(ACTOR_B);
    assertThat(atA).allMatch(r -> hasher.vnode(r) % 2 == 0, "node A holds the even vnodes");
    assertThat(atB).allMatch(r -> hasher.vnode(r) % 2 == 1, "node B holds the odd vnodes");
    Set<Row> all = new HashSet<>(atA);
    all.addAll(atB);
    assertThat(all).isEqualTo(new HashSet<>(rows(0, 100)));
    assertThat(TestJob.ROW_EPOCH.values())
        .as("acknowledged before barrier 2: emitted between barriers 1 and 2")
        .containsOnly(1);

    // an UPDATE by key: delete the old rows, insert the new ones, in the next epoch
    List<Row> updated = new ArrayList<>();
    for (long k = 0; k < 10; k++) {
      updated.add(Row.of(k, -k));
    }
    acks = write(table(), -1, rows(0, 10), updated);
    assertThat(acks).allMatch(e -> e instanceof ComputeEvent.DmlWritten);
    long epoch2 = barrier(cluster.epochBase, 2).curr();
    assertThat(acks).allMatch(e -> ((ComputeEvent.DmlWritten) e).epoch() == epoch2);
    barrierAndWait(3);
    for (Row r : updated) {
      assertThat(TestJob.ROW_EPOCH.get(r)).as("new row %s after barrier 2", r).isEqualTo(2);
    }
    assertThat(TestJob.SINK_ROWS.get(ACTOR_A).size() + TestJob.SINK_ROWS.get(ACTOR_B).size())
        .isEqualTo(100 + 10 + 10);
  }

  @Test
  void aWriteQueuedBeforeItsActorStartsIsAnsweredOnlyOnceItJoinsAnEpochAndFailsWhenResetFirst()
      throws Exception {
    TableDesc t = table(TestJob.REAL_TABLES + 2);
    Map<Integer, String> nodes = Map.of(ACTOR_A, cluster.a.address(), ACTOR_B, cluster.b.address());
    send(
        cluster.controlA,
        new ActorSpec(ACTOR_A, 30, tablePlan(t), vnodes(0), Map.of(), List.of(), List.of()),
        nodes);
    // one row, owned by actor A, which waits for its first barrier
    Row row =
        rows(0, 64).stream().filter(r -> owners()[vnodeOf(t, r)] == ACTOR_A).findFirst().get();
    cluster.controlA.tell(
        new ComputeRequest.WriteDml(
            cluster.nextRequestId(),
            t.tableId(),
            ACTOR_A,
            inserts(t.types(), List.of(row)),
            cluster.meta));
    assertThat(cluster.poll(300)).as("no answer while the rows are in no epoch yet").isNull();

    cluster.generation++;
    cluster.controlA.tell(
        new ComputeRequest.ResetForRecovery(
            cluster.nextRequestId(), cluster.generation, 0, cluster.meta));
    cluster.controlB.tell(
        new ComputeRequest.ResetForRecovery(
            cluster.nextRequestId(), cluster.generation, 0, cluster.meta));
    List<ComputeEvent> seen = new ArrayList<>();
    while (seen.stream().filter(e -> e instanceof ComputeEvent.Ack).count() < 2
        || seen.stream().noneMatch(e -> e instanceof ComputeEvent.CommandFailed)) {
      seen.add(cluster.take());
    }
    assertThat(seen)
        .filteredOn(e -> e instanceof ComputeEvent.CommandFailed)
        .singleElement()
        .satisfies(
            e ->
                assertThat(((ComputeEvent.CommandFailed) e).reason())
                    .contains("write discarded")
                    .contains("before it took the write"));
    assertThat(seen).noneMatch(e -> e instanceof ComputeEvent.DmlWritten);
  }

  @Test
  void aWriteNamingAnActorNotOnTheNodeIsRefusedAsRetryable() throws Exception {
    buildTable(table());
    cluster.controlA.tell(
        new ComputeRequest.WriteDml(
            cluster.nextRequestId(),
            TABLE,
            ACTOR_B,
            inserts(table().types(), rows(0, 1)),
            cluster.meta));
    ComputeEvent e = cluster.take();
    assertThat(e).isInstanceOf(ComputeEvent.CommandFailed.class);
    assertThat(((ComputeEvent.CommandFailed) e).reason())
        .as("the writer retries this while actors are rebuilt")
        .contains("has no DML actor " + ACTOR_B + " on this node");
  }

  private static int vnodeOf(TableDesc t, Row r) {
    return new VnodeHasher(t.types(), new int[] {0}).vnode(r);
  }

  @Test
  void aWriteIsInTheTableOnceTheNextCheckpointCommits() throws Exception {
    TableDesc t = table(TestJob.REAL_TABLES + 1);
    buildTable(t);
    write(t, -1, List.of(), rows(0, 100));
    commit(barrierAndCollect(2));
    assertThat(committedRows(t)).isEqualTo(100);

    write(t, -1, rows(0, 30), List.of());
    assertThat(committedRows(t)).as("not before the checkpoint commits").isEqualTo(100);
    commit(barrierAndCollect(3));
    assertThat(committedRows(t)).isEqualTo(70);
  }

  /** Commits each node's synced SSTs in its own store, as meta would in the shared one. */
  private static void commit(Map<Integer, ComputeEvent.Completed> done) {
    for (var e : done.entrySet()) {
      var c = e.getValue().completed();
      Storage s = e.getKey() == 1 ? cluster.storageA : cluster.storageB;
      List<SstInfo> ssts = c.syncedSsts().stream().map(SstInfo.class::cast).toList();
      s.commitEpoch(c.epoch().prev(), ssts, Map.of());
    }
  }

  /** Rows of {@code t} both stores hold at their committed epoch. */
  private static long committedRows(TableDesc t) {
    long n = 0;
    for (Storage s : List.of(cluster.storageA, cluster.storageB)) {
      try (StateIterator it = s.iter(KeyRange.table(t.tableId()), s.committedEpoch())) {
        while (it.next()) {
          n++;
        }
      }
    }
    return n;
  }

  @Test
  void aWriteThatCannotBeRoutedHereIsRefusedWholeWithTheReason() throws Exception {
    buildTable(table());
    Row ofB = rows(0, 100).stream().filter(r -> owners()[vnodeOf(r)] == ACTOR_B).findFirst().get();
    Row ofA = rows(0, 100).stream().filter(r -> owners()[vnodeOf(r)] == ACTOR_A).findFirst().get();

    String reason = failure(cluster.controlA, TABLE, inserts(table().types(), List.of(ofA, ofB)));
    assertThat(reason)
        .contains("node 1", "table 300", "vnode " + vnodeOf(ofB), "which actor 31 does not own");
    assertThat(failure(cluster.controlA, 999, inserts(table().types(), List.of(ofA))))
        .contains("table 999 has no DML actor 31 on this node");
    assertThat(
            failure(
                cluster.controlA,
                TABLE,
                inserts(List.of(DataType.VARCHAR, DataType.BIGINT), List.of(Row.of("x", 1L)))))
        .contains("table 300", "a chunk of columns [character varying", "the table's are");

    barrierAndWait(2);
    assertThat(TestJob.SINK_ROWS.getOrDefault(ACTOR_A, List.of()))
        .as("nothing of a refused write is applied")
        .isEmpty();
  }

  private static String failure(ActorRef<ControlMessage> control, int table, StreamChunk chunk)
      throws Exception {
    control.tell(
        new ComputeRequest.WriteDml(cluster.nextRequestId(), table, ACTOR_A, chunk, cluster.meta));
    ComputeEvent e = cluster.take();
    assertThat(e).isInstanceOf(ComputeEvent.CommandFailed.class);
    return ((ComputeEvent.CommandFailed) e).reason();
  }

  private static int vnodeOf(Row r) {
    return new VnodeHasher(table().types(), new int[] {0}).vnode(r);
  }

  @Test
  void aTableWithoutPrimaryKeyGetsUniqueRowIdsInEachActorsVnodesAcrossARestart() throws Exception {
    TableDesc t = rowIdTable();
    Set<Long> firstRun = writeNullIds(t, 0);
    assertThat(firstRun).hasSize(400);

    cluster.reset(); // recovery: actors rebuilt, epochs continue above the committed ones
    TestJob.SINK_ROWS.clear();
    Set<Long> secondRun = writeNullIds(t, 1000);
    assertThat(secondRun).hasSize(400);
    assertThat(secondRun).as("ids after the restart").doesNotContainAnyElementsOf(firstRun);
  }

  /** Inserts 200 rows with NULL ids on each node; returns the ids the actors assigned. */
  private static Set<Long> writeNullIds(TableDesc t, long base) throws Exception {
    buildTable(t);
    List<Row> rows = new ArrayList<>();
    for (long v = base; v < base + 400; v++) {
      rows.add(Row.of(v, null));
    }
    List<ComputeEvent> acks = write(t, 1, List.of(), rows);
    assertThat(acks).hasSize(2).allMatch(e -> e instanceof ComputeEvent.DmlWritten);
    barrierAndWait(2);
    VnodeHasher hasher = new VnodeHasher(t.types(), new int[] {1});
    Set<Long> ids = new HashSet<>();
    for (int actor : List.of(ACTOR_A, ACTOR_B)) {
      for (Row r : TestJob.SINK_ROWS.get(actor)) {
        assertThat(r.get(1)).as("row id of %s", r).isNotNull();
        assertThat(owners()[hasher.vnode(r)]).as("owner of %s", r).isEqualTo(actor);
        ids.add((Long) r.get(1));
      }
    }
    return ids;
  }

  @Test
  void theNodeServesMetricsOfItsActorsBarriersRowsAndSyncsOverHttp() throws Exception {
    buildTable(table());
    String before = scrape(cluster.a.httpPort());
    write(table(), -1, List.of(), rows(0, 100));
    barrierAndWait(2);
    barrierAndWait(3);
    String after = scrape(cluster.a.httpPort());
    long atA = TestJob.SINK_ROWS.get(ACTOR_A).size();
    assertThat(value(after, "tideway_compute_actors_running")).isEqualTo(1);
    String dmlOut = "tideway_compute_executor_rows_out_total{kind=\"Dml\"}";
    assertThat(value(after, dmlOut) - value(before, dmlOut)).isEqualTo(atA);
    String matIn = "tideway_compute_executor_rows_in_total{kind=\"Materialize\"}";
    assertThat(value(after, matIn) - value(before, matIn)).isEqualTo(atA);
    String latency = "tideway_compute_barrier_latency_seconds_count";
    assertThat(value(after, latency) - value(before, latency)).isEqualTo(2);
    String sync = "tideway_compute_sync_duration_seconds_count";
    assertThat(value(after, sync) - value(before, sync)).isEqualTo(2);
    assertThat(after).contains("tideway_compute_exchange_outputs_waiting_credit 0.0");
    assertThat(cluster.b.httpPort()).isNotEqualTo(cluster.a.httpPort());
  }

  /** The value of the sample line {@code name value} in a scrape (0 when absent). */
  private static double value(String scrape, String name) {
    return scrape
        .lines()
        .filter(l -> l.startsWith(name + " "))
        .mapToDouble(l -> Double.parseDouble(l.substring(name.length() + 1).trim()))
        .findFirst()
        .orElse(0);
  }

  private static String scrape(int port) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }
}

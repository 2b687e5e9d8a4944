package dev.tideway.meta.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.meta.fragment.Plans;
import dev.tideway.meta.schedule.Worker;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.meta.DdlCommand;
import dev.tideway.protocol.meta.DdlCommand.CancelJob;
import dev.tideway.protocol.meta.DdlCommand.CreateStreamingJob;
import dev.tideway.protocol.meta.DdlCommand.Drop;
import dev.tideway.protocol.meta.DdlCommand.FinishJob;
import dev.tideway.protocol.meta.DdlCommand.ReserveIds;
import dev.tideway.protocol.meta.DdlReply;
import dev.tideway.protocol.meta.DdlReply.Rejected.Reason;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** DDL decided purely: each test feeds commands and replays the decided changes. */
class CatalogCoreTest {
  static final ClusterView TWO_NODES =
      new ClusterView(List.of(new Worker("c1", 2), new Worker("c2", 2)), 1_000);

  CatalogCore core = new CatalogCore(Plans.OPERATOR_IDS);
  CatalogState state;
  int schema;

  @BeforeEach
  void bootstrap() {
    state = CatalogState.empty();
    core.bootstrap(state).forEach(c -> state = state.apply(c));
    schema = state.find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA).orElseThrow().id();
    assertThat(core.bootstrap(state)).as("bootstrap is idempotent").isEmpty();
  }

  DdlReply run(DdlCommand cmd, ClusterView view) {
    DdlDecision d = core.decide(cmd, state, view);
    if (d.reply() instanceof DdlReply.Rejected) {
      assertThat(d.changes()).as("a rejection changes nothing").isEmpty();
    }
    d.changes().forEach(c -> state = state.apply(c));
    return d.reply();
  }

  int[] reserve(int n) {
    DdlReply.IdsReserved r = (DdlReply.IdsReserved) run(new ReserveIds(n), TWO_NODES);
    assertThat(state.nextId().next()).isEqualTo(r.toExclusive());
    int[] ids = new int[n];
    for (int i = 0; i < n; i++) {
      ids[i] = r.from() + i;
    }
    return ids;
  }

  DdlReply.JobAccepted createCountMv(String name, CreateType type) {
    int[] ids = reserve(3);
    return (DdlReply.JobAccepted)
        run(
            new CreateStreamingJob(
                ObjectKind.MATERIALIZED_VIEW,
                schema,
                name,
                "CREATE MATERIALIZED VIEW " + name,
                Plans.countByK(ids[0], ids[1], ids[2]),
                type),
            TWO_NODES);
  }

  @Test
  void acceptedJobIsVisibleAsCreatingWithItsObjectsAndPlacement() {
    DdlReply.JobAccepted acc = createCountMv("mv1", CreateType.BACKGROUND);
    int jobId = acc.job().jobId();
    assertThat(state.jobs().get(jobId).status()).isEqualTo(JobStatus.CREATING);
    assertThat(state.jobs().get(jobId).createType()).isEqualTo(CreateType.BACKGROUND);
    assertThat(state.jobs().get(jobId).createdAtMs()).isEqualTo(1_000);
    assertThat(state.objects().get(jobId).kind()).isEqualTo(ObjectKind.MATERIALIZED_VIEW);
    assertThat(state.objects().get(jobId).name()).isEqualTo("mv1");
    assertThat(acc.job().objectIds()).hasSize(3);
    assertThat(acc.job().objectIds().stream().map(id -> state.objects().get(id).kind()))
        .containsExactlyInAnyOrder(
            ObjectKind.MATERIALIZED_VIEW, ObjectKind.INTERNAL_TABLE, ObjectKind.INTERNAL_TABLE);
    FragmentGraph g = state.fragments().get(jobId);
    assertThat(g.fragments()).hasSize(2);
    assertThat(g.actors()).hasSize(8).extracting(Actor::node).containsOnly("c1", "c2");
    // fresh ids never collide with reserved or used ones
    int maxId = g.actors().stream().mapToInt(Actor::actorId).max().orElseThrow();
    assertThat(state.nextId().next()).isGreaterThan(maxId);
  }

  @Test
  void duplicateNamesUnreservedIdsAndMissingComputeNodesAreRejected() {
    createCountMv("mv1", CreateType.FOREGROUND);
    int[] ids = reserve(3);
    var again =
        new CreateStreamingJob(
            ObjectKind.MATERIALIZED_VIEW,
            schema,
            "mv1",
            "",
            Plans.countByK(ids[0], ids[1], ids[2]),
            CreateType.FOREGROUND);
    assertThat(run(again, TWO_NODES))
        .isEqualTo(new DdlReply.Rejected(Reason.ALREADY_EXISTS, "relation 'mv1' already exists"));
    var unreserved =
        new CreateStreamingJob(
            ObjectKind.MATERIALIZED_VIEW,
            schema,
            "mv2",
            "",
            Plans.countByK(900, 901, 902),
            CreateType.FOREGROUND);
    assertThat(run(unreserved, TWO_NODES))
        .isInstanceOfSatisfying(
            DdlReply.Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.INVALID));
    var noNodes =
        new CreateStreamingJob(
            ObjectKind.MATERIALIZED_VIEW,
            schema,
            "mv3",
            "",
            Plans.countByK(ids[0], ids[1], ids[2]),
            CreateType.FOREGROUND);
    assertThat(run(noNodes, new ClusterView(List.of(), 0)))
        .isInstanceOfSatisfying(
            DdlReply.Rejected.class,
            r -> assertThat(r.reason()).isEqualTo(Reason.NO_COMPUTE_NODES));
  }

  @Test
  void mvOnMvIsCoLocatedWithItsUpstreamAndBlocksItsDrop() {
    int upstream = createCountMv("mv1", CreateType.FOREGROUND).job().jobId();
    int[] ids = reserve(2);
    DdlReply.JobAccepted down =
        (DdlReply.JobAccepted)
            run(
                new CreateStreamingJob(
                    ObjectKind.MATERIALIZED_VIEW,
                    schema,
                    "mv2",
                    "",
                    Plans.mvOnMv(upstream, ids[0], ids[1]),
                    CreateType.FOREGROUND),
                TWO_NODES);
    FragmentGraph up = state.fragments().get(upstream);
    FragmentGraph.Fragment scan = down.graph().fragments().get(0);
    FragmentGraph.Edge edge = scan.upstreams().get(0);
    assertThat(edge.kind()).isEqualTo(DispatcherKind.NO_SHUFFLE);
    assertThat(edge.crossJob()).isTrue();
    List<Actor> upActors = up.actorsOf(edge.upstreamFragmentId());
    List<Actor> scanActors = down.graph().actorsOf(scan.fragmentId());
    assertThat(scanActors)
        .extracting(Actor::node)
        .isEqualTo(upActors.stream().map(Actor::node).toList());
    assertThat(scanActors)
        .extracting(Actor::vnodes)
        .isEqualTo(upActors.stream().map(Actor::vnodes).toList());

    assertThat(run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv1"), TWO_NODES))
        .isInstanceOfSatisfying(
            DdlReply.Rejected.class,
            r -> assertThat(r.message()).contains("jobs [" + down.job().jobId() + "]"));
    assertThat(run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv2"), TWO_NODES))
        .isInstanceOf(DdlReply.JobRemoved.class);
    assertThat(run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv1"), TWO_NODES))
        .isInstanceOf(DdlReply.JobRemoved.class);
  }

  @Test
  void dropRemovesTheJobItsObjectsAndFragmentsAndNamesActorsAndTables() {
    DdlReply.JobAccepted acc = createCountMv("mv1", CreateType.FOREGROUND);
    int objectsBefore = state.objects().size();
    DdlReply.JobRemoved removed =
        (DdlReply.JobRemoved) run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv1"), TWO_NODES);
    assertThat(removed.actorIds()).hasSize(acc.graph().actors().size());
    assertThat(removed.tableIds()).containsExactlyInAnyOrderElementsOf(acc.job().objectIds());
    assertThat(state.jobs()).isEmpty();
    assertThat(state.fragments()).isEmpty();
    assertThat(state.objects()).hasSize(objectsBefore - 3);
    assertThat(run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv1"), TWO_NODES))
        .isInstanceOfSatisfying(
            DdlReply.Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.NOT_FOUND));
  }

  @Test
  void onlyCreatingJobsCanBeCancelledAndFinishFlipsToCreated() {
    int a = createCountMv("a", CreateType.BACKGROUND).job().jobId();
    int b = createCountMv("b", CreateType.BACKGROUND).job().jobId();
    run(new FinishJob(a, new byte[] {9}), TWO_NODES);
    assertThat(state.jobs().get(a).status()).isEqualTo(JobStatus.CREATED);
    assertThat(state.jobs().get(a).progressSnapshot()).containsExactly(9);
    assertThat(run(new CancelJob(a), TWO_NODES))
        .isInstanceOfSatisfying(
            DdlReply.Rejected.class, r -> assertThat(r.reason()).isEqualTo(Reason.WRONG_STATUS));
    assertThat(run(new CancelJob(b), TWO_NODES)).isInstanceOf(DdlReply.JobRemoved.class);
    assertThat(state.jobs()).containsOnlyKeys(a);
  }

  @Test
  void pausingAViewPausesTheViewsReadingItRemovesCreatingOnesAndRefusesNewReaders() {
    int up = createCountMv("mv1", CreateType.FOREGROUND).job().jobId();
    run(new FinishJob(up, new byte[0]), TWO_NODES);
    int[] ids = reserve(2);
    int created =
        ((DdlReply.JobAccepted)
                run(
                    new CreateStreamingJob(
                        ObjectKind.MATERIALIZED_VIEW,
                        schema,
                        "mv2",
                        "",
                        Plans.mvOnMv(up, ids[0], ids[1]),
                        CreateType.FOREGROUND),
                    TWO_NODES))
            .job()
            .jobId();
    run(new FinishJob(created, new byte[0]), TWO_NODES);
    ids = reserve(2);
    int creating =
        ((DdlReply.JobAccepted)
                run(
                    new CreateStreamingJob(
                        ObjectKind.MATERIALIZED_VIEW,
                        schema,
                        "mv3",
                        "",
                        Plans.mvOnMv(up, ids[0], ids[1]),
                        CreateType.BACKGROUND),
                    TWO_NODES))
            .job()
            .jobId();

    assertThat(run(new DdlCommand.PauseJob(up, "boom"), TWO_NODES))
        .isInstanceOf(DdlReply.JobUpdated.class);
    assertThat(state.jobs().get(up).status()).isEqualTo(JobStatus.PAUSED);
    assertThat(state.jobs().get(up).error()).isEqualTo("boom");
    assertThat(state.jobs().get(created).status()).isEqualTo(JobStatus.PAUSED);
    assertThat(state.jobs().get(created).error()).isEqualTo("upstream job " + up + " paused: boom");
    assertThat(state.jobs()).doesNotContainKey(creating);
    assertThat(state.fragments()).doesNotContainKey(creating).containsKeys(up, created);
    assertThat(run(new DdlCommand.PauseJob(up, "again"), TWO_NODES))
        .as("pausing a paused job changes nothing")
        .isInstanceOf(DdlReply.JobUpdated.class);
    assertThat(state.jobs().get(up).error()).isEqualTo("boom");

    ids = reserve(2);
    assertThat(
            run(
                new CreateStreamingJob(
                    ObjectKind.MATERIALIZED_VIEW,
                    schema,
                    "mv4",
                    "",
                    Plans.mvOnMv(up, ids[0], ids[1]),
                    CreateType.FOREGROUND),
                TWO_NODES))
        .isInstanceOfSatisfying(
            DdlReply.Rejected.class,
            r -> assertThat(r.message()).contains("'mv1', which is paused (boom)"));
    assertThat(run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv2"), TWO_NODES))
        .isInstanceOf(DdlReply.JobRemoved.class);
    assertThat(run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv1"), TWO_NODES))
        .isInstanceOf(DdlReply.JobRemoved.class);
    assertThat(state.jobs()).isEmpty();
  }

  @Test
  void createTableFromSourceAndCreateSource() {
    int[] ids = reserve(2);
    DdlReply t =
        run(
            new CreateStreamingJob(
                ObjectKind.TABLE,
                schema,
                "t",
                "CREATE TABLE t",
                Plans.sourceTable(ids[0], ids[1]),
                CreateType.FOREGROUND),
            TWO_NODES);
    assertThat(t)
        .isInstanceOfSatisfying(
            DdlReply.JobAccepted.class,
            j ->
                assertThat(state.objects().get(j.job().jobId()).kind())
                    .isEqualTo(ObjectKind.TABLE));
    int[] s = reserve(1);
    DdlReply src =
        run(
            new CreateStreamingJob(
                ObjectKind.SOURCE,
                schema,
                "s",
                "CREATE SOURCE s",
                Plans.source(s[0]),
                CreateType.FOREGROUND),
            TWO_NODES);
    assertThat(src)
        .isInstanceOfSatisfying(
            DdlReply.JobAccepted.class,
            j -> {
              assertThat(state.objects().get(j.job().jobId()).kind()).isEqualTo(ObjectKind.SOURCE);
              assertThat(state.objects().get(j.job().jobId()).columns()).hasSize(2);
            });
  }

  @Test
  void aSourceIsCatalogOnlyAndCannotBeDroppedWhileAnMvReadsIt() {
    var cols =
        List.of(
            new dev.tideway.common.plan.ColumnDesc(0, "k", dev.tideway.common.types.DataType.INT),
            new dev.tideway.common.plan.ColumnDesc(
                1, "v", dev.tideway.common.types.DataType.BIGINT));
    var created =
        (DdlReply.ObjectCreated)
            run(
                new DdlCommand.CreateSource(
                    schema,
                    "events",
                    "CREATE SOURCE events (k INT, v BIGINT) WITH (connector = 'datagen')",
                    cols,
                    List.of(),
                    java.util.Map.of("connector", "datagen", "rows_per_second", "100")),
                TWO_NODES);
    int sourceId = created.id();
    var src = state.objects().get(sourceId);
    assertThat(src.kind()).isEqualTo(ObjectKind.SOURCE);
    assertThat(src.catalogOnly()).isTrue();
    assertThat(src.properties()).containsEntry("connector", "datagen");
    assertThat(state.jobs()).as("no streaming job for a source").isEmpty();
    assertThat(state.fragments()).isEmpty();
    assertThat(
            run(
                new DdlCommand.CreateSource(
                    schema, "events", "", cols, List.of(), java.util.Map.of()),
                TWO_NODES))
        .isInstanceOf(DdlReply.Rejected.class);

    int[] ids = reserve(3);
    var mv =
        (DdlReply.JobAccepted)
            run(
                new CreateStreamingJob(
                    ObjectKind.MATERIALIZED_VIEW,
                    schema,
                    "mv_events",
                    "CREATE MATERIALIZED VIEW mv_events AS SELECT k, count(*) FROM events GROUP BY k",
                    Plans.countByK(ids[0], ids[1], ids[2]),
                    CreateType.FOREGROUND,
                    List.of(sourceId)),
                TWO_NODES);
    int mvId = mv.job().jobId();
    assertThat(state.objects().get(mvId).dependsOn()).containsExactly(sourceId);
    assertThat(state.objects().get(mvId).distributionKey()).isNotNull();

    DdlReply refused = run(new Drop(ObjectKind.SOURCE, schema, "events"), TWO_NODES);
    assertThat(refused).isInstanceOf(DdlReply.Rejected.class);
    assertThat(((DdlReply.Rejected) refused).reason()).isEqualTo(Reason.HAS_DEPENDENTS);
    assertThat(((DdlReply.Rejected) refused).message())
        .isEqualTo("cannot drop source 'events': [mv_events] read it; drop them first");

    int objectsBefore = state.objects().size();
    run(new Drop(ObjectKind.MATERIALIZED_VIEW, schema, "mv_events"), TWO_NODES);
    DdlReply dropped = run(new Drop(ObjectKind.SOURCE, schema, "events"), TWO_NODES);
    assertThat(dropped).isInstanceOf(DdlReply.JobRemoved.class);
    assertThat(state.objects()).doesNotContainKey(sourceId);
    assertThat(state.find(1, CatalogCore.DEFAULT_SCHEMA, ObjectKind.SCHEMA))
        .as("dropping a catalog-only source removes nothing else")
        .isPresent();
    assertThat(state.objects().size()).isLessThan(objectsBefore);
  }

  @Test
  void anMvNamingAMissingSourceIsRefused() {
    int[] ids = reserve(3);
    DdlReply r =
        run(
            new CreateStreamingJob(
                ObjectKind.MATERIALIZED_VIEW,
                schema,
                "mv_x",
                "",
                Plans.countByK(ids[0], ids[1], ids[2]),
                CreateType.FOREGROUND,
                List.of(9_999)),
            TWO_NODES);
    assertThat(r).isInstanceOf(DdlReply.Rejected.class);
    assertThat(((DdlReply.Rejected) r).message()).contains("9999");
  }

  @Test
  void actorsOfALostNodeMoveTogetherToALiveNode() {
    DdlReply.JobAccepted acc = createCountMv("mv_r", CreateType.BACKGROUND);
    int job = acc.job().jobId();
    assertThat(state.fragments().get(job).actors()).anyMatch(a -> a.node().equals("c1"));
    ClusterView onlyC2 = new ClusterView(List.of(new Worker("c2", 2)), 2_000);

    assertThat(run(new DdlCommand.RelocateActors(), TWO_NODES))
        .isEqualTo(new DdlReply.ActorsRelocated(java.util.Map.of()));
    var moved = (DdlReply.ActorsRelocated) run(new DdlCommand.RelocateActors(), onlyC2);
    assertThat(moved.moves()).containsExactly(java.util.Map.entry("c1", "c2"));
    FragmentGraph after = state.fragments().get(job);
    assertThat(after.actors()).allMatch(a -> a.node().equals("c2"));
    assertThat(after.actors().stream().map(Actor::vnodes).toList())
        .isEqualTo(acc.graph().actors().stream().map(Actor::vnodes).toList());
    DdlReply refused = run(new DdlCommand.RelocateActors(), new ClusterView(List.of(), 3_000));
    assertThat(refused).isInstanceOf(DdlReply.Rejected.class);
    assertThat(((DdlReply.Rejected) refused).reason()).isEqualTo(Reason.NO_COMPUTE_NODES);
    assertThat(state.fragments().get(job)).isEqualTo(after);
  }

  @Test
  void aRecoveryIsLoggedOnceAndAnOlderGenerationIsRefused() {
    assertThat(run(new DdlCommand.RecordRecovery(5L << 32, 100), TWO_NODES))
        .isEqualTo(new DdlReply.RecoveryRecorded(5L << 32));
    assertThat(run(new DdlCommand.RecordRecovery(5L << 32, 100), TWO_NODES))
        .as("a retried reset of the same generation")
        .isEqualTo(new DdlReply.RecoveryRecorded(5L << 32));
    assertThat(state.recoveries().entries()).hasSize(1);
    assertThat(run(new DdlCommand.RecordRecovery(5L << 32, 90), TWO_NODES))
        .isInstanceOf(DdlReply.Rejected.class);
    assertThat(run(new DdlCommand.RecordRecovery(4L << 32, 120), TWO_NODES))
        .isInstanceOf(DdlReply.Rejected.class);
    run(new DdlCommand.RecordRecovery((5L << 32) + 1, 130), TWO_NODES);
    assertThat(state.recoveries().entries())
        .containsExactly(
            new RecoveryLog.Entry(5L << 32, 100), new RecoveryLog.Entry((5L << 32) + 1, 130));
  }
}

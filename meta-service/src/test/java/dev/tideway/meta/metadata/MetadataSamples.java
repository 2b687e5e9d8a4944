package dev.tideway.meta.metadata;

import dev.tideway.common.plan.ColumnDesc;
import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.types.DataType;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.protocol.catalog.BackfillHistory;
import dev.tideway.protocol.catalog.CatalogObject;
import dev.tideway.protocol.catalog.CreateType;
import dev.tideway.protocol.catalog.FragmentDistribution;
import dev.tideway.protocol.catalog.FragmentGraph;
import dev.tideway.protocol.catalog.JobRecord;
import dev.tideway.protocol.catalog.JobStatus;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.NextId;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.ObjectKind;
import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.catalog.SystemParams;
import dev.tideway.protocol.catalog.VersionPointer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One fixed sample of every persisted record (the golden files hold their encodings). */
public final class MetadataSamples {
  private MetadataSamples() {}

  public static final SystemParams PARAMS = new SystemParams(250, 2, 3, 8);

  public static final CatalogObject MV =
      new CatalogObject(
          7,
          ObjectKind.MATERIALIZED_VIEW,
          "mv_counts",
          3,
          7,
          "CREATE MATERIALIZED VIEW mv_counts AS SELECT k, count(*) FROM t GROUP BY k",
          List.of(
              new ColumnDesc(0, "k", DataType.INT), new ColumnDesc(1, "count", DataType.BIGINT)),
          List.of(0));

  /** A catalog-only source with connector properties (fields added after v1's first release). */
  public static final CatalogObject SOURCE =
      new CatalogObject(
          8,
          ObjectKind.SOURCE,
          "events",
          3,
          0,
          "CREATE SOURCE events (k INT) WITH (connector = 'datagen')",
          List.of(new ColumnDesc(0, "k", DataType.INT)),
          List.of(),
          java.util.Map.of("connector", "datagen", "rows_per_second", "1000"),
          List.of(),
          List.of());

  /** An MV with a distribution key that reads the source above. */
  public static final CatalogObject MV_ON_SOURCE =
      MV.withDistributionKey(List.of(0)).withDependsOn(List.of(8));

  public static final JobRecord JOB =
      new JobRecord(
          7,
          MV.definition(),
          JobStatus.CREATING,
          CreateType.BACKGROUND,
          1_700_000_000_000L,
          List.of(7, 8),
          "progress".getBytes(StandardCharsets.UTF_8));

  /** A job isolated after its actors kept failing: the status and why survive a restart. */
  public static final JobRecord PAUSED_JOB =
      new JobRecord(
              9,
              "CREATE MATERIALIZED VIEW p AS SELECT 1",
              JobStatus.CREATED,
              CreateType.FOREGROUND,
              1_700_000_000_000L,
              List.of(9),
              new byte[0])
          .paused("its actors failed 3 times in a row; last: boom");

  public static final FragmentGraph GRAPH =
      new FragmentGraph(
          7,
          "test-codec",
          List.of(
              new FragmentGraph.Fragment(
                  10, FragmentDistribution.HASH, List.of(), List.of(8), new byte[] {1, 2, 3}),
              new FragmentGraph.Fragment(
                  11,
                  FragmentDistribution.SINGLETON,
                  List.of(new FragmentGraph.Edge(10, DispatcherKind.HASH, List.of(0), false)),
                  List.of(7),
                  new byte[] {4})),
          List.of(
              new FragmentGraph.Actor(
                  12, 10, "compute-1:5688", VnodeBitmap.range(0, 128), List.of()),
              new FragmentGraph.Actor(
                  13, 10, "compute-2:5688", VnodeBitmap.range(128, 256), List.of()),
              new FragmentGraph.Actor(14, 11, "compute-1:5688", VnodeBitmap.ALL, List.of(12, 13))));

  public static final VersionPointer POINTER =
      new VersionPointer(42, 123_456L << 16, "version/checkpoint-42");

  public static final NodeInfo NODE =
      new NodeInfo("compute", "compute-1:5688", 99, 4, 1_700_000_000_123L);

  public static final LeaderInfo LEADER = new LeaderInfo("meta-1:5690", "127.0.0.1:5691", 3);

  public static final NextId NEXT_ID = new NextId(15);

  public static final RecoveryLog RECOVERIES =
      RecoveryLog.EMPTY.append(1L << 32, 0).append((1L << 32) + 1, 123_456L << 16);

  public static final BackfillHistory BACKFILLS =
      BackfillHistory.EMPTY.append(
          new BackfillHistory.Entry(
              12,
              "mv_counts",
              "CREATE MATERIALIZED VIEW mv_counts AS SELECT k, count(*) FROM t GROUP BY k",
              1_700_000_000_000L,
              1_700_000_062_500L,
              1_000_000,
              16_000.0,
              17_250.5,
              0.0425,
              1_700_000_010_000L,
              63,
              false));
}

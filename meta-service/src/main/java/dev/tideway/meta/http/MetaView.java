package dev.tideway.meta.http;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.meta.barrier.BarrierLog;
import dev.tideway.meta.barrier.NodeStatuses;
import dev.tideway.meta.barrier.SinkDeliveries;
import dev.tideway.meta.barrier.VnodesDone;
import dev.tideway.meta.dashboard.DashboardRecorder;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.NodeInfo;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ExpressionErrorCount;
import dev.tideway.storage.api.TableStats;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the HTTP handlers and metrics may read about a meta process. Implementations return
 * snapshots and must be callable from any thread.
 */
public interface MetaView {
  String clusterId();

  String participantId();

  boolean isLeader();

  /** Leader with metadata loaded, or a standby whose ZooKeeper session is connected. */
  boolean isReady();

  Optional<LeaderInfo> leader();

  List<NodeInfo> nodes();

  /** The creating jobs' structured progress at the last commit (leader only; else empty). */
  default Map<Long, JobProgress> progress() {
    return Map.of();
  }

  /** Each running sink actor's delivery at the last commit, by actor (leader only; else empty). */
  default Map<Integer, SinkDeliveries.Delivered> sinkDeliveries() {
    return Map.of();
  }

  /**
   * Each backfilling actor's vnodes whose snapshot is done, at the last commit, by actor (leader
   * only; else empty: the job page then counts an actor's vnodes done only when it is).
   */
  default Map<Integer, VnodesDone.Count> vnodesDone() {
    return Map.of();
  }

  /**
   * Each compute node's heap and compaction activity as its last committed checkpoint reported
   * them, by address (leader only; else empty).
   */
  default Map<String, NodeStatuses.Status> nodeStatuses() {
    return Map.of();
  }

  /**
   * The streaming jobs' expression errors summed over the compute nodes, by job, fragment and kind
   * (leader only; else empty). Collected on demand: the first read after a while may lag a second.
   */
  default List<ExpressionErrorCount> expressionErrors() {
    return List.of();
  }

  /** The leader's recent barriers, oldest first (empty on a standby). */
  default List<BarrierLog.Entry> recentBarriers() {
    return List.of();
  }

  /** Barriers in flight on the leader (0 on a standby). */
  default int inflightBarriers() {
    return 0;
  }

  /** The leader's time series and recoveries (empty on a standby, or without a barrier loop). */
  default Optional<DashboardRecorder> recorder() {
    return Optional.empty();
  }

  /** The codec of the fragment bodies, to name their operators (empty: ids only). */
  default Optional<PlanCodec> planCodec() {
    return Optional.empty();
  }

  /** The current storage version's stats per table (empty when this process holds no store). */
  default Map<Integer, TableStats> tableStats() {
    return Map.of();
  }

  /** A one-line description of the current storage version: its id, levels and SSTs. */
  default String storageVersion() {
    return "";
  }

  /** The catalog: the leader's own state, or (on a standby) a read from ZooKeeper. */
  Optional<CatalogState> catalog();
}

package dev.tideway.meta.http;

import dev.tideway.barrier.progress.JobProgress;
import dev.tideway.meta.barrier.BarrierLog;
import dev.tideway.meta.barrier.SinkDeliveries;
import dev.tideway.protocol.catalog.CatalogState;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.catalog.NodeInfo;
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

  /** The leader's recent barriers, oldest first (empty on a standby). */
  default List<BarrierLog.Entry> recentBarriers() {
    return List.of();
  }

  /** Barriers in flight on the leader (0 on a standby). */
  default int inflightBarriers() {
    return 0;
  }

  /** The catalog: the leader's own state, or (on a standby) a read from ZooKeeper. */
  Optional<CatalogState> catalog();
}

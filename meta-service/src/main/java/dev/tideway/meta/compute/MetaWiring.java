package dev.tideway.meta.compute;

import dev.tideway.barrier.control.BarrierCompleted;
import dev.tideway.barrier.control.NodeFailure;
import dev.tideway.barrier.global.BarrierConfig;
import dev.tideway.barrier.progress.ProgressConfig;
import dev.tideway.common.time.Clock;
import dev.tideway.meta.barrier.BarrierObserver;
import dev.tideway.meta.barrier.BarrierRunner;
import dev.tideway.meta.barrier.RecoveryBackoff;
import dev.tideway.meta.version.ReaderPins;
import dev.tideway.meta.version.StorageVersionCommitter;
import dev.tideway.meta.version.VersionMaintenance;
import dev.tideway.protocol.catalog.PlanCodec;
import dev.tideway.protocol.compute.ComputeBridge;
import dev.tideway.storage.api.SstInfo;
import dev.tideway.storage.api.Storage;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;

/**
 * How a meta process runs its barrier loop in a real cluster: compute nodes reached over Pekko
 * through the {@link ComputeBridge}, versions committed to the storage engine this process owns.
 */
public final class MetaWiring {
  private MetaWiring() {}

  /**
   * @param barrierIntervalMs the barrier interval, or 0 to follow the cluster's system parameters
   * @param maintain whether the leader schedules compaction on the compute nodes and vacuums (a
   *     cluster's version owner); a standalone store (the playground) compacts itself
   */
  public static BarrierRunner.Wiring<SstInfo> of(
      ComputeBridge bridge,
      PlanCodec codec,
      Storage storage,
      String storeUrl,
      long barrierIntervalMs,
      boolean maintain,
      Clock clock) {
    BarrierConfig config =
        barrierIntervalMs <= 0
            ? null
            : new BarrierConfig(
                barrierIntervalMs,
                1,
                BarrierConfig.DEFAULT.maxInflightBarriers(),
                BarrierConfig.DEFAULT.collectTimeoutMs());
    return new BarrierRunner.Wiring<>(
        config,
        ProgressConfig.DEFAULT,
        manager ->
            new PekkoComputeClient(
                bridge,
                codec,
                new PekkoComputeClient.Sink() {
                  @Override
                  public void completed(BarrierCompleted<SstInfo> c) {
                    try {
                      manager.onCompleted(c);
                    } catch (RejectedExecutionException closed) {
                      // the term ended; its successor rebuilds from ZooKeeper
                    }
                  }

                  @Override
                  public void failed(NodeFailure f) {
                    try {
                      manager.onNodeFailure(f);
                    } catch (RejectedExecutionException closed) {
                      // the term ended; its successor rebuilds from ZooKeeper
                    }
                  }

                  @Override
                  public void nodeLost(String address, String why) {
                    try {
                      manager.onNodeLost(address, why);
                    } catch (RejectedExecutionException closed) {
                      // the term ended
                    }
                  }

                  @Override
                  public Optional<String> nodeAddress(int nodeId) {
                    return manager.nodeAddress(nodeId);
                  }
                }),
        new StorageVersionCommitter(storage, storeUrl),
        u -> {},
        RecoveryBackoff.DEFAULT,
        BarrierObserver.NONE,
        maintain
            ? List.of(
                VersionMaintenance.task(
                    storage, new ReaderPins(clock), VersionMaintenance.Config.DEFAULT, clock))
            : List.of());
  }
}

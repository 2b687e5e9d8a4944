package dev.tideway.meta.barrier;

import dev.tideway.protocol.catalog.CatalogState;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The barrier ids of compute nodes for one leader term: a node keeps its id for the whole term (ids
 * are handed out in address order for the nodes known at the start, then in order of first
 * appearance), so barriers injected before and after a new node appears name every node the same
 * way. The compute client maps an {@code InjectBarrier}'s node id back to an address with {@link
 * GlobalBarrierManager#nodeAddress}. Assigned on the barrier loop's thread; read anywhere.
 */
final class NodeIds {
  private final Map<String, Integer> byAddress = new ConcurrentHashMap<>();
  private final Map<Integer, String> byId = new ConcurrentHashMap<>();
  private int next = 1;

  /** Assigns ids to the nodes of {@code state} not seen before; returns every id. */
  Map<String, Integer> assign(CatalogState state) {
    for (String address : Topologies.nodeIds(state).keySet()) {
      byAddress.computeIfAbsent(
          address,
          a -> {
            int id = next++;
            byId.put(id, a);
            return id;
          });
    }
    return Map.copyOf(byAddress);
  }

  Optional<Integer> idOf(String address) {
    return Optional.ofNullable(byAddress.get(address));
  }

  Optional<String> addressOf(int nodeId) {
    return Optional.ofNullable(byId.get(nodeId));
  }
}

package dev.tideway.compute.exchange;

import dev.tideway.common.check.Checks;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;

/**
 * The node's channels by {@link ChannelId}: local channels, and the remote ends the {@link
 * ExchangeEndpoint} delivers frames and credits to. A frame may arrive before the downstream actor
 * is built (its upstream on another node started first), so remote inputs are created by whichever
 * side comes first.
 *
 * <p>Thread-safe (concurrent maps): the node's control loop registers and removes, the endpoint
 * actor looks up.
 */
public final class ExchangeRegistry {
  private final Map<Long, LocalChannel> locals = new ConcurrentHashMap<>();
  private final Map<Long, RemoteInput> remoteInputs = new ConcurrentHashMap<>();
  private final Map<Long, RemoteOutput> remoteOutputs = new ConcurrentHashMap<>();

  /** The local channel {@code channel}, created with {@code capacity} if absent. */
  public LocalChannel local(long channel, int capacity) {
    return locals.computeIfAbsent(channel, c -> new LocalChannel(c, capacity));
  }

  /** The remote input {@code channel}, created by {@code factory} if absent. */
  public RemoteInput remoteInput(long channel, LongFunction<RemoteInput> factory) {
    return remoteInputs.computeIfAbsent(channel, factory::apply);
  }

  /** Registers the sending end of {@code channel}; fails if it exists. */
  public void addRemoteOutput(RemoteOutput output) {
    RemoteOutput old = remoteOutputs.putIfAbsent(output.channel(), output);
    Checks.checkState(
        old == null,
        "channel %s: remote output registered twice",
        ChannelId.toString(old == null ? 0 : old.channel()));
  }

  /** The sending end of {@code channel}, or null. */
  public RemoteOutput remoteOutput(long channel) {
    return remoteOutputs.get(channel);
  }

  /** The remote input of {@code channel} if it exists, else null. */
  public RemoteInput existingRemoteInput(long channel) {
    return remoteInputs.get(channel);
  }

  /** The remote inputs now registered (a snapshot), for metrics and tests. */
  public List<RemoteInput> remoteInputs() {
    return List.copyOf(remoteInputs.values());
  }

  /** Forgets every channel that starts or ends at {@code actorId}. */
  public void removeActor(int actorId) {
    locals.keySet().removeIf(c -> touches(c, actorId));
    remoteInputs.keySet().removeIf(c -> touches(c, actorId));
    remoteOutputs.keySet().removeIf(c -> touches(c, actorId));
  }

  /** Forgets {@code channel} at either end (an output removed by a {@code Stop} barrier). */
  public void removeChannel(long channel) {
    locals.remove(channel);
    remoteInputs.remove(channel);
    remoteOutputs.remove(channel);
  }

  /** The remote outputs now registered (a snapshot), for metrics and tests. */
  public List<RemoteOutput> remoteOutputs() {
    return List.copyOf(remoteOutputs.values());
  }

  /** The local channels now registered (a snapshot), for metrics and tests. */
  public List<LocalChannel> localChannels() {
    return List.copyOf(locals.values());
  }

  /** Fails every remote input whose upstream actor is in {@code upstreamActors} (peer left). */
  public void failInputsFrom(Set<Integer> upstreamActors, String reason) {
    remoteInputs.forEach(
        (c, in) -> {
          if (upstreamActors.contains(ChannelId.upstream(c))) {
            in.fail(reason);
          }
        });
  }

  /** Forgets everything (reset for recovery). */
  public void clear() {
    locals.clear();
    remoteInputs.clear();
    remoteOutputs.clear();
  }

  private static boolean touches(long channel, int actorId) {
    return ChannelId.upstream(channel) == actorId || ChannelId.downstream(channel) == actorId;
  }
}

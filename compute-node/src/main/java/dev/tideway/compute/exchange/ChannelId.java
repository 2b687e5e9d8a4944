package dev.tideway.compute.exchange;

/**
 * A channel joins one upstream actor to one downstream actor; its id packs both actor ids into a
 * {@code long} (upstream in the high half). Actor ids are unique in the cluster, so the id is too.
 */
public final class ChannelId {
  private ChannelId() {}

  public static long of(int upstreamActorId, int downstreamActorId) {
    return ((long) upstreamActorId << 32) | (downstreamActorId & 0xFFFF_FFFFL);
  }

  public static int upstream(long channel) {
    return (int) (channel >>> 32);
  }

  public static int downstream(long channel) {
    return (int) channel;
  }

  public static String toString(long channel) {
    return upstream(channel) + "->" + downstream(channel);
  }
}

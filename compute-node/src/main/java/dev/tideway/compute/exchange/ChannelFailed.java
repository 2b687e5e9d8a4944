package dev.tideway.compute.exchange;

/**
 * A channel can no longer deliver in order: a frame was lost (sequence gap), the producer waited
 * longer than the stall timeout for credit, or the peer left. The actor fails with it and meta
 * recovers from the last checkpoint; a channel is never repaired in place.
 */
public final class ChannelFailed extends RuntimeException {
  public ChannelFailed(String message) {
    super(message);
  }
}

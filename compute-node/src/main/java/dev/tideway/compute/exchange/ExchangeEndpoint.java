package dev.tideway.compute.exchange;

import java.util.function.LongFunction;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's exchange mailbox, spawned at {@link #NAME} so peers can address it by path, and listed
 * in Artery's {@code large-message-destinations} so frames travel on their own connection (credits
 * and control messages never queue behind 32 KiB frames). It only hands frames to the {@link
 * RemoteInput} and credits to the {@link RemoteOutput} of their channel; it never blocks.
 */
public final class ExchangeEndpoint {
  /** The actor name under {@code /user}. */
  public static final String NAME = "exchange";

  private static final Logger LOG = LoggerFactory.getLogger(ExchangeEndpoint.class);

  private ExchangeEndpoint() {}

  /**
   * The behavior. {@code inputs} creates a remote input for a frame whose channel is not registered
   * yet.
   */
  public static Behavior<ExchangeMessage> create(
      ExchangeRegistry registry, LongFunction<RemoteInput> inputs) {
    Behavior<ExchangeMessage> b =
        Behaviors.receive(ExchangeMessage.class)
            .onMessage(
                ExchangeMessage.Frame.class,
                f -> {
                  registry.remoteInput(f.channel(), inputs).onFrame(f);
                  return Behaviors.same();
                })
            .onMessage(
                ExchangeMessage.Credit.class,
                c -> {
                  RemoteOutput out = registry.remoteOutput(c.channel());
                  if (out == null) {
                    LOG.debug("credit for unknown channel {}", ChannelId.toString(c.channel()));
                  } else {
                    out.grant(c.frames());
                  }
                  return Behaviors.same();
                })
            .build();
    // A protocol violation on one channel (checked in grant) must not stop the node's endpoint.
    return Behaviors.supervise(b)
        .onFailure(IllegalStateException.class, SupervisorStrategy.resume());
  }
}

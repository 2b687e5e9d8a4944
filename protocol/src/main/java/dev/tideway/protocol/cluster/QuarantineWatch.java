package dev.tideway.protocol.cluster;

import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.remote.artery.ThisActorSystemQuarantinedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops this member's actor system when another member has quarantined it: the cluster removed this
 * incarnation (it was downed while paused, say, by a long GC or a SIGSTOP, and its ZooKeeper
 * session expired), and nothing it sends is accepted any more. Pekko does not stop such a member by
 * itself: it never hears that it was downed, and would sit in the cluster as a ghost that holds
 * actors the meta leader can no longer reach, so every recovery that counts on it fails. Once its
 * system stops, the process exits with its "downed" status and its supervisor starts a new
 * incarnation.
 */
final class QuarantineWatch extends AbstractActor {
  private static final Logger LOG = LoggerFactory.getLogger(QuarantineWatch.class);

  /** Starts the watch on {@code system} (once per actor system). */
  static void start(ExtendedActorSystem system) {
    // a system actor: typed systems take no top-level user actors from outside
    ActorRef ref =
        system.systemActorOf(Props.create(QuarantineWatch.class), "tideway-quarantine-watch");
    system.eventStream().subscribe(ref, ThisActorSystemQuarantinedEvent.class);
  }

  @Override
  public Receive createReceive() {
    return receiveBuilder()
        .match(
            ThisActorSystemQuarantinedEvent.class,
            e -> {
              LOG.error(
                  "member {} quarantined this member {}: the cluster removed it; stopping so that"
                      + " a new incarnation can join",
                  e.remoteAddress(),
                  e.localAddress());
              getContext().getSystem().terminate();
            })
        .build();
  }
}

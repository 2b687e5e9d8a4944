package dev.tideway.barrier.archfixture;

import org.apache.pekko.actor.typed.ActorRef;

/** Breaks the barrier-is-pure rule on purpose (see BoundaryRulesCatchViolationsTest). */
public final class BarrierImportsPekko {
  ActorRef<String> ref;
}

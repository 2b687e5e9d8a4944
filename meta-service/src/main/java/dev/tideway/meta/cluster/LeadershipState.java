package dev.tideway.meta.cluster;

/**
 * Where one meta process stands. Transitions (on the elector's owner thread): {@code Standby →
 * Leading} on winning the latch and bumping the epoch; {@code Leading → Standby} on losing the
 * latch or the connection; anything {@code → Closed} on close. Other transitions throw.
 */
public sealed interface LeadershipState {
  /** Waiting in the latch; not allowed to write. */
  record Standby() implements LeadershipState {}

  /** Leading under {@code term}; the only state in which fenced writes are attempted. */
  record Leading(LeaderTerm term) implements LeadershipState {}

  /** Closed for good. */
  record Closed() implements LeadershipState {}
}

package dev.tideway.meta.barrier;

/**
 * The metric label of a recovery's cause ({@code tideway_recovery_total{cause=...}}), derived from
 * the reason text the barrier core and the shell give. A small fixed set, so the label stays
 * bounded.
 */
public enum RecoveryCause {
  LEADER_ELECTED("leader_elected"),
  COLLECT_TIMEOUT("collect_timeout"),
  NODE_LOST("node_lost"),
  ACTOR_FAILURE("actor_failure"),
  RESET_FAILED("reset_failed"),
  OTHER("other");

  private final String label;

  RecoveryCause(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** Classifies a recovery reason as the core and the shell word it. */
  public static RecoveryCause of(String reason) {
    if (reason == null) {
      return OTHER;
    }
    if (reason.startsWith("meta leader elected")) {
      return LEADER_ELECTED;
    }
    if (reason.startsWith("collect timeout")) {
      return COLLECT_TIMEOUT;
    }
    if (reason.startsWith("reset failed")) {
      return RESET_FAILED;
    }
    if (reason.startsWith("node ") && reason.contains(" lost")) {
      return NODE_LOST;
    }
    if (reason.startsWith("node ")) {
      return ACTOR_FAILURE;
    }
    return OTHER;
  }
}

package dev.tideway.storage.archfixture;

/** Breaks the clock ban on purpose (see BoundaryRulesCatchViolationsTest). */
public final class StorageReadsWallClock {
  long now() {
    return System.currentTimeMillis();
  }
}

package dev.tideway.storage.archfixture;

import org.junit.jupiter.api.Test;

/** A test class Surefire would never run; breaks the naming rule on purpose. */
public final class misnamedTestFixture {
  @Test
  void neverRuns() {}
}

package dev.tideway.it.arch;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.tideway.barrier.archfixture.BarrierImportsPekko;
import dev.tideway.common.archfixture.CommonUsesCli;
import dev.tideway.storage.archfixture.StorageReadsWallClock;
import dev.tideway.storage.archfixture.StorageStartsExecutors;
import dev.tideway.storage.archfixture.misnamedTestFixture;
import org.junit.jupiter.api.Test;

/**
 * Shows that each rule fails when a forbidden dependency is added: the fixtures under {@code
 * archfixture} packages (test sources only, never in the production import) each break one rule.
 */
class BoundaryRulesCatchViolationsTest {
  private static JavaClasses only(Class<?>... classes) {
    return new ClassFileImporter().importClasses(classes);
  }

  @Test
  void barrierImportingPekkoIsRejected() {
    assertThatThrownBy(() -> TidewayRules.BARRIER_IS_PURE.check(only(BarrierImportsPekko.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("BarrierImportsPekko")
        .hasMessageContaining("org.apache.pekko");
  }

  @Test
  void commonDependingOnCliIsRejected() {
    assertThatThrownBy(() -> TidewayRules.MODULE_LAYERS.get(0).check(only(CommonUsesCli.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("CommonUsesCli")
        .hasMessageContaining("dev.tideway.cli");
  }

  @Test
  void readingTheWallClockDirectlyIsRejected() {
    assertThatThrownBy(
            () -> TidewayRules.BANNED_CALLS.get(0).check(only(StorageReadsWallClock.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("currentTimeMillis")
        .hasMessageContaining("Clock");
  }

  @Test
  void startingPoolsWithExecutorsIsRejected() {
    assertThatThrownBy(
            () -> TidewayRules.BANNED_CALLS.get(4).check(only(StorageStartsExecutors.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("Executors")
        .hasMessageContaining("Threads");
  }

  @Test
  void testClassThatSurefireWouldSkipIsRejected() {
    assertThatThrownBy(() -> TidewayRules.TEST_NAMES.check(only(misnamedTestFixture.class)))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("misnamedTestFixture");
  }
}

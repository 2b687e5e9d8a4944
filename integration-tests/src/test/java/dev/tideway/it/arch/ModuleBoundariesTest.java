package dev.tideway.it.arch;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Holds the whole code base to the rules in {@link TidewayRules}. */
class ModuleBoundariesTest {
  private static final List<String> MODULES =
      List.of(
          "common",
          "sql-parser",
          "storage-engine",
          "barrier",
          "backfill",
          "protocol",
          "compute-node",
          "meta-service",
          "frontend",
          "cli",
          "integration-tests");

  private static JavaClasses production;

  @BeforeAll
  static void importClasses() {
    production = TidewayRules.productionClasses();
  }

  @Test
  void everyModuleIsImported() {
    for (String pkg : List.of("common", "protocol", "cli")) {
      assertThat(production.containPackage("dev.tideway." + pkg))
          .as("production classes of dev.tideway.%s are on the class path", pkg)
          .isTrue();
    }
  }

  static Stream<ArchRule> layerRules() {
    return TidewayRules.MODULE_LAYERS.stream();
  }

  @ParameterizedTest
  @MethodSource("layerRules")
  void modulesDependOnlyOnWhatTheDesignAllows(ArchRule rule) {
    rule.check(production);
  }

  @Test
  void barrierIsPureLogic() {
    TidewayRules.BARRIER_IS_PURE.allowEmptyShould(true).check(production);
  }

  @Test
  void storageIsUsedThroughItsApi() {
    TidewayRules.STORAGE_THROUGH_ITS_API.allowEmptyShould(true).check(production);
  }

  @Test
  void modulesHaveNoCycles() {
    TidewayRules.MODULES_FREE_OF_CYCLES.check(production);
    TidewayRules.COMMON_PACKAGES_FREE_OF_CYCLES.check(production);
    TidewayRules.BARRIER_PACKAGES_FREE_OF_CYCLES.check(production);
  }

  static Stream<ArchRule> bannedCalls() {
    return TidewayRules.BANNED_CALLS.stream();
  }

  @ParameterizedTest
  @MethodSource("bannedCalls")
  void nondeterminismIsInjected(ArchRule rule) {
    rule.check(production);
  }

  @Test
  void testClassesAreNamedSoTheyRun() {
    Path root = Path.of("").toAbsolutePath().getParent();
    List<Path> testDirs = new ArrayList<>();
    for (String module : MODULES) {
      Path dir = root.resolve(module).resolve("target/test-classes");
      if (Files.isDirectory(dir)) {
        testDirs.add(dir);
      }
    }
    assertThat(testDirs).as("compiled test classes found under %s", root).isNotEmpty();
    JavaClasses tests =
        new ClassFileImporter()
            .withImportOption(location -> !location.contains("/archfixture/"))
            .importPaths(testDirs);
    TidewayRules.TEST_NAMES.check(tests);
  }
}

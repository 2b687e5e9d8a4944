package dev.tideway.it.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.conditions.ArchConditions;
import java.util.List;

/**
 * The module boundaries of DESIGN §2 and STYLE §5.1, and the bans of STYLE §4.12, as ArchUnit
 * rules. Each rule names the reason a reader needs when it fails.
 *
 * <p>Module → root package: common {@code dev.tideway.common}, storage-engine {@code
 * dev.tideway.storage}, barrier {@code dev.tideway.barrier}, backfill {@code dev.tideway.backfill},
 * protocol {@code dev.tideway.protocol}, connectors {@code dev.tideway.connector}, compute-node
 * {@code dev.tideway.compute}, meta-service {@code dev.tideway.meta}, frontend {@code
 * dev.tideway.frontend}, cli {@code dev.tideway.cli}.
 */
final class TidewayRules {
  private TidewayRules() {}

  /** Production classes of every module: no test classes, no test-jars, no third-party jars. */
  static com.tngtech.archunit.core.domain.JavaClasses productionClasses() {
    return new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(TidewayRules::notTestJar)
        .importPackages("dev.tideway");
  }

  private static boolean notTestJar(Location location) {
    return !location.contains("-tests.jar") && !location.contains("/test-classes/");
  }

  static ArchRule moduleMayOnlyUse(String module, String... allowed) {
    List<String> others =
        List.of(
                "common",
                "sql",
                "storage",
                "barrier",
                "backfill",
                "protocol",
                "connector",
                "compute",
                "meta",
                "frontend",
                "cli")
            .stream()
            .filter(m -> !m.equals(module) && !List.of(allowed).contains(m))
            .map(m -> "dev.tideway." + m + "..")
            .toList();
    return noClasses()
        .that()
        .resideInAPackage("dev.tideway." + module + "..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(others.toArray(String[]::new))
        .because(
            "DESIGN §2: module '"
                + module
                + "' depends only on "
                + (allowed.length == 0 ? "nothing" : String.join(", ", allowed)))
        .allowEmptyShould(true); // a module may not have classes yet
  }

  /** Every module's allowed dependencies (arrows point one way; nothing depends on cli). */
  static final List<ArchRule> MODULE_LAYERS =
      List.of(
          moduleMayOnlyUse("common"),
          moduleMayOnlyUse("sql"),
          moduleMayOnlyUse("storage", "common"),
          moduleMayOnlyUse("barrier", "common"),
          moduleMayOnlyUse("backfill", "common", "barrier", "storage"),
          moduleMayOnlyUse("protocol", "common", "barrier", "storage"),
          moduleMayOnlyUse("connector", "common"),
          moduleMayOnlyUse(
              "compute", "common", "barrier", "backfill", "storage", "protocol", "connector"),
          moduleMayOnlyUse("meta", "common", "barrier", "storage", "protocol"),
          moduleMayOnlyUse(
              "frontend", "common", "sql", "barrier", "storage", "protocol", "connector"));

  /** The protocol module is pure logic, so it can be simulated exhaustively. */
  static final ArchRule BARRIER_IS_PURE =
      noClasses()
          .that()
          .resideInAPackage("dev.tideway.barrier..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage("org.apache.pekko..", "org.apache.curator..", "org.apache.parquet..")
          .because(
              "STYLE §5.1: barrier holds the protocol as pure state machines; the Pekko and"
                  + " ZooKeeper shells live in compute-node and meta-service");

  /** Other modules reach the state store only through its public surface. */
  static final ArchRule STORAGE_THROUGH_ITS_API =
      noClasses()
          .that()
          .resideOutsideOfPackage("dev.tideway.storage..")
          .should()
          .dependOnClassesThat(
              DescribedPredicate.describe(
                  "storage-engine internals",
                  (JavaClass c) ->
                      c.getPackageName().startsWith("dev.tideway.storage.")
                          && !c.getPackageName().startsWith("dev.tideway.storage.api")
                          && !c.getPackageName().startsWith("dev.tideway.storage.table")
                          && !c.getPackageName().startsWith("dev.tideway.storage.version")))
          .because(
              "STYLE §5.1: use storage-engine through dev.tideway.storage.api, StateTable"
                  + " (storage.table) and, for the meta version manager, storage.version");

  static final ArchRule MODULES_FREE_OF_CYCLES =
      slices().matching("dev.tideway.(*)..").should().beFreeOfCycles();

  static final ArchRule COMMON_PACKAGES_FREE_OF_CYCLES =
      slices().matching("dev.tideway.common.(*)..").should().beFreeOfCycles();

  static final ArchRule BARRIER_PACKAGES_FREE_OF_CYCLES =
      slices().matching("dev.tideway.barrier.(*)..").should().beFreeOfCycles();

  private static ArchRule noCallsOutside(
      String allowedPackage, String replacement, Class<?> owner, String... methods) {
    return noClasses()
        .that()
        .resideOutsideOfPackage(allowedPackage)
        .should(
            ArchConditions.callMethodWhere(
                DescribedPredicate.describe(
                    owner.getSimpleName() + "." + String.join("/", methods),
                    (JavaCall<?> call) ->
                        call.getTargetOwner().isEquivalentTo(owner)
                            && List.of(methods).contains(call.getName()))))
        .because("STYLE §4.12: inject nondeterminism; use " + replacement);
  }

  /** Direct calls to the sources of nondeterminism, each ban naming the replacement. */
  static final List<ArchRule> BANNED_CALLS =
      List.of(
          noCallsOutside(
              "dev.tideway.common.time..",
              "dev.tideway.common.time.Clock",
              System.class,
              "currentTimeMillis",
              "nanoTime"),
          noCallsOutside("dev.tideway.common.time..", "Clock.sleepMillis", Thread.class, "sleep"),
          noCallsOutside(
              "dev.tideway.common.random..",
              "dev.tideway.common.random.RandomSource",
              Math.class,
              "random"),
          noClasses()
              .that()
              .resideOutsideOfPackage("dev.tideway.common.random..")
              .should()
              .dependOnClassesThat()
              .haveFullyQualifiedName("java.util.Random")
              .orShould()
              .dependOnClassesThat()
              .haveFullyQualifiedName("java.util.concurrent.ThreadLocalRandom")
              .because("STYLE §4.12: use the seeded dev.tideway.common.random.RandomSource"),
          noClasses()
              .that()
              .resideOutsideOfPackage("dev.tideway.common.exec..")
              .should()
              .dependOnClassesThat()
              .haveFullyQualifiedName("java.util.concurrent.Executors")
              .because(
                  "STYLE §4.12: create threads and pools with dev.tideway.common.exec.Threads"
                      + " (named threads, one place to swap in a deterministic scheduler)"));

  /** Test classes live under fixed names so Surefire and Failsafe find them (STYLE §4.17). */
  static final ArchRule TEST_NAMES =
      classes()
          .that(
              DescribedPredicate.describe(
                  "declare test methods",
                  (JavaClass c) ->
                      c.getMethods().stream()
                          .anyMatch(
                              m ->
                                  m.isAnnotatedWith("org.junit.jupiter.api.Test")
                                      || m.isAnnotatedWith(
                                          "org.junit.jupiter.params.ParameterizedTest")
                                      || m.isAnnotatedWith("net.jqwik.api.Property")
                                      || m.isAnnotatedWith("net.jqwik.api.Example"))))
          .and()
          .areTopLevelClasses()
          .should()
          .haveSimpleNameEndingWith("Test")
          .orShould()
          .haveSimpleNameEndingWith("IT")
          .because("STYLE §4.17: Surefire runs *Test, Failsafe runs *IT; other names never run");
}

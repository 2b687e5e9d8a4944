package dev.tideway.it.slt;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every {@code .slt} file under {@code src/test/resources/slt} (except {@code include/}, whose
 * files are only included) as one dynamic test, each on its own connection, against {@link
 * #target()}. {@code -Dslt.filter=substring} runs only the files whose path contains it.
 */
class SltFilesIT {
  private static SltTarget target;

  /** The cluster the files run against: change this one line to run them elsewhere. */
  static SltTarget target() throws IOException {
    return SltTarget.playground();
  }

  @BeforeAll
  static void start() throws IOException {
    target = target();
  }

  @AfterAll
  static void stop() throws IOException {
    if (target == null) {
      return;
    }
    try {
      assertThat(target.recoveries())
          .as("recoveries (a stalled barrier, a failed actor) while the files ran")
          .isLessThanOrEqualTo(0);
    } finally {
      target.close();
    }
  }

  static Path root() throws URISyntaxException {
    return Path.of(SltFilesIT.class.getResource("/slt").toURI());
  }

  static List<Path> files(Path root) throws IOException {
    String filter = System.getProperty("slt.filter", "");
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(p -> p.toString().endsWith(".slt"))
          .filter(p -> !root.relativize(p).startsWith("include"))
          .filter(p -> p.toString().contains(filter))
          .sorted()
          .toList();
    }
  }

  @TestFactory
  Stream<DynamicTest> sltFiles() throws Exception {
    Path root = root();
    List<Path> files = files(root);
    assertThat(files).as("slt files under %s", root).isNotEmpty();
    return files.stream()
        .map(
            f ->
                DynamicTest.dynamicTest(
                    root.relativize(f).toString(),
                    () -> {
                      SltRunner.FileResult r =
                          new SltRunner(target.jdbcUrl(), target.properties()).run(f);
                      assertThat(r.failure()).as("%s", r.failure().orElse(null)).isEmpty();
                      assertThat(r.recordsRun()).as("records run in %s", f).isPositive();
                    }));
  }

  private static SltRunner.FileResult runText(String text) throws Exception {
    return new SltRunner(target.jdbcUrl(), target.properties())
        .run("wrong.slt", SltParser.parse("wrong.slt", text, Optional.empty()));
  }

  @Test
  void aWrongExpectedRowFailsNamingFileLineExpectedAndActual() throws Exception {
    SltRunner.FileResult r =
        runText(
            """
            query II rowsort
            SELECT x, x * 10 FROM generate_series(1, 3) AS x
            ----
            1 10
            2 20
            3 30

            query II rowsort
            SELECT x, x * 10 FROM generate_series(1, 3) AS x
            ----
            1 10
            2 21
            3 30

            statement ok
            SELECT 'never reached'
            """);
    assertThat(r.passed()).isFalse();
    assertThat(r.recordsRun()).as("stops at the first failure").isEqualTo(2);
    assertThat(r.failure().orElseThrow().toString())
        .startsWith("wrong.slt:8: query result mismatch: expected 3 rows, got 3 (rowsorted)")
        .contains("  - 2 21\n  + 2 20\n")
        .contains("in: SELECT x, x * 10 FROM generate_series(1, 3) AS x");
  }

  @Test
  void unexpectedSuccessFailureCountAndErrorMismatchAllFail() throws Exception {
    assertThat(runText("statement error\nSELECT 1\n").failure().orElseThrow().message())
        .isEqualTo("statement succeeded but an error was expected");
    assertThat(runText("statement ok\nSELECT * FROM slt_nosuch\n").failure().orElseThrow())
        .satisfies(
            f -> {
              assertThat(f.location().line()).isEqualTo(1);
              assertThat(f.message())
                  .startsWith("statement failed: ")
                  .contains("relation \"slt_nosuch\" does not exist")
                  .endsWith("SQLSTATE 42P01");
            });
    assertThat(
            runText("statement error SQLSTATE 0A000\nSELECT * FROM slt_nosuch\n")
                .failure()
                .orElseThrow()
                .message())
        .startsWith("error does not match /SQLSTATE 0A000/");
    assertThat(
            runText("statement error\nSELECT * FROM slt_nosuch\n----\nno such thing\n")
                .failure()
                .orElseThrow()
                .message())
        .startsWith("error does not contain \"no such thing\"");
    assertThat(runText("statement count 3\nSELECT 1\n").failure().orElseThrow().message())
        .isEqualTo("expected 3 rows affected, got a result set");
    assertThat(runText("query I\nSELECT 1\n----\n1\n\nhalt\n\nstatement ok\nSELEC\n").passed())
        .as("halt stops the file before the broken statement")
        .isTrue();
  }
}

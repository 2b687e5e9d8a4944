package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Python client matrix ({@code clients/python_clients.py}) against a real playground: psycopg 3
 * with every column type round-tripped through the text and the binary format (PostgreSQL's values
 * as expected), parameters in LIMIT, COPY in and out, transactions, a server-side cursor;
 * SQLAlchemy's reflection and Core statements over psycopg2, a materialized view among them. The
 * script prints a PASS or FAIL line per check (KNOWN for the gaps it lists, with their reasons);
 * the test fails on any FAIL and prints the table. Without a Python that imports psycopg, psycopg2
 * and sqlalchemy (Debian's python3-psycopg, python3-psycopg2 and python3-sqlalchemy) the class is
 * skipped, except on CI (environment variable {@code CI} set), where {@code .ci/run} installs them.
 */
class PythonClientsIT {
  @TempDir Path dir;

  /** A Python with the three client libraries, or null. */
  static String python() throws Exception {
    for (String candidate : List.of("/usr/bin/python3", "python3")) {
      try {
        Process p =
            new ProcessBuilder(candidate, "-c", "import psycopg, psycopg2, sqlalchemy")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0) {
          return candidate;
        }
      } catch (java.io.IOException e) {
        // not installed under this name
      }
    }
    return null;
  }

  @Test
  void psycopgAndSqlalchemyWorkAsTheirUsersExpect() throws Exception {
    String python = python();
    if (python == null) {
      String why =
          "no python3 imports psycopg, psycopg2 and sqlalchemy: install python3-psycopg,"
              + " python3-psycopg2 and python3-sqlalchemy (.ci/run does)";
      if (System.getenv("CI") != null) {
        Assertions.fail(why);
      }
      Assumptions.assumeTrue(false, why);
    }
    Path script = dir.resolve("python_clients.py");
    try (InputStream in = getClass().getResourceAsStream("/clients/python_clients.py")) {
      Files.write(script, in.readAllBytes());
    }
    try (Playground p =
        Playground.start(PlaygroundIT.options(dir.resolve("data")), Clock.system())) {
      Process run =
          new ProcessBuilder(python, script.toString(), String.valueOf(p.pgPort()))
              .redirectErrorStream(true)
              .start();
      String out = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(run.waitFor(5, TimeUnit.MINUTES)).as("the client matrix ends").isTrue();
      System.out.println(out); // the matrix, for the log
      List<String> failed =
          out.lines().filter(l -> !l.startsWith("PASS ") && !l.startsWith("KNOWN ")).toList();
      assertThat(failed)
          .as("checks that did not pass")
          .hasSize(1)
          .allMatch(l -> l.startsWith("SUMMARY ") && l.endsWith(" 0"));
      assertThat(out.lines().filter(l -> l.startsWith("PASS ")).count())
          .as("checks passed")
          .isGreaterThanOrEqualTo(50);
      assertThat(run.exitValue()).isZero();
    }
  }
}

package dev.tideway.frontend.syscatalog;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.common.time.Clock;
import dev.tideway.frontend.Frontend;
import dev.tideway.frontend.meta.InMemoryCluster;
import dev.tideway.frontend.pgwire.PgException;
import dev.tideway.frontend.pgwire.PgSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Replays every catalog statement psql 15 and pgjdbc 42.7 send (the verbatim corpus in {@code
 * src/test/resources/catalog}) against a fixture schema and pins which ones the emulation answers.
 * A statement leaving the list (it broke) or joining it (it was fixed: update {@link #ANSWERED})
 * fails the test. Slow (every statement is a new Calcite plan), hence an IT.
 */
class CatalogCorpusIT {
  /** Statement numbers of the corpus the catalog answers today. */
  static final TreeSet<Integer> ANSWERED =
      new TreeSet<>(
          List.of(
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22, 23, 24, 25, 26,
              27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44));

  /** Parameter values for the pgjdbc statements, per statement number. */
  static final Map<Integer, List<Object>> PARAMS =
      Map.of(
          30, List.of("public", "%"),
          32, List.of("public", "t", "%"),
          33, List.of("public", "t"),
          36, List.of("public", "t"),
          38, List.of(1186L),
          39, List.of(1186L));

  static Map<Integer, String> corpus(long oid) throws IOException {
    String text =
        Files.readString(
            Path.of("src/test/resources/catalog/pgwire-catalog-queries.sql"),
            StandardCharsets.UTF_8);
    Map<Integer, String> out = new LinkedHashMap<>();
    Matcher m = Pattern.compile("(?m)^-- \\[(\\d+)\\][^\\n]*\\n").matcher(text);
    List<int[]> heads = new ArrayList<>();
    while (m.find()) {
      heads.add(new int[] {Integer.parseInt(m.group(1)), m.start(), m.end()});
    }
    for (int i = 0; i < heads.size(); i++) {
      int end = i + 1 < heads.size() ? heads.get(i + 1)[1] : text.length();
      String sql = text.substring(heads.get(i)[2], end).replaceAll("(?m)^--.*$", "").trim();
      sql =
          sql.replace("<oid>", Long.toString(oid))
              .replace("<name>", "t")
              .replace("<schema>", "public");
      out.put(heads.get(i)[0], sql.endsWith(";") ? sql.substring(0, sql.length() - 1) : sql);
    }
    return out;
  }

  @Test
  void psqlAndPgjdbcCatalogQueriesAnswered() throws IOException {
    PgSession s = Frontend.inMemory(new InMemoryCluster(Clock.system())).open("root", "dev");
    run(
        s,
        "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR NOT NULL, amount DECIMAL(10,2), created TIMESTAMPTZ)",
        List.of());
    run(
        s,
        "CREATE MATERIALIZED VIEW m AS SELECT name, count(*) AS n FROM t GROUP BY name",
        List.of());
    long oid =
        Long.parseLong(
            String.valueOf(
                run(s, "SELECT c.oid FROM pg_catalog.pg_class c WHERE c.relname = 't'", List.of())
                    .get(0)[0]));
    Map<Integer, String> failures = new TreeMap<>();
    TreeSet<Integer> answered = new TreeSet<>();
    for (Map.Entry<Integer, String> e : corpus(oid).entrySet()) {
      try {
        run(s, e.getValue(), PARAMS.getOrDefault(e.getKey(), List.of()));
        answered.add(e.getKey());
      } catch (PgException ex) {
        failures.put(e.getKey(), ex.sqlState() + " " + ex.getMessage());
      }
    }
    failures.forEach((k, v) -> System.out.println("[" + k + "] " + v));
    assertThat(answered).as("failures: %s", failures).isEqualTo(ANSWERED);
    // the list commands see the fixture
    String dt = corpus(oid).get(2);
    assertThat(run(s, dt, List.of())).extracting(r -> r[1]).containsExactly("t");
  }

  private static List<Object[]> run(PgSession s, String sql, List<Object> params) {
    PgSession.Prepared p = s.prepare(sql, new int[0]);
    return s.execute(p, params, n -> {}).rows();
  }
}

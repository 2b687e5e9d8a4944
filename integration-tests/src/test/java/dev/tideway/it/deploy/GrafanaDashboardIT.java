package dev.tideway.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import dev.tideway.it.cluster.TestPorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Helm chart's Grafana dashboard queries only metrics Tideway really exports: every metric name
 * in every panel's PromQL must be a sample name on the {@code /metrics} of the meta process or of
 * the compute node of a real playground, scraped while it creates materialized views (one of them
 * backfilling slowly in the background, so the per-job progress gauges exist) and turns expression
 * errors into NULLs.
 *
 * <p>Names are compared with sample names, not families: a counter registered as {@code x} is
 * exposed (and queried) as {@code x_total}, a histogram as {@code x_bucket}, {@code x_sum} and
 * {@code x_count}.
 */
class GrafanaDashboardIT {
  private static final Path DASHBOARD =
      Path.of("").toAbsolutePath().getParent().resolve("helm/tideway/dashboards/tideway.json");

  /**
   * Metric names in PromQL: Tideway's own, and those of the JVM and process collectors (none of
   * which is registered today: a panel on them fails here until one is).
   */
  private static final Pattern METRIC =
      Pattern.compile("\\b(?:tideway|jvm|process)_[A-Za-z0-9_:]*");

  /** Gauges that exist only while a job is being created. */
  private static final List<String> BACKFILL_GAUGES =
      List.of(
          "tideway_ddl_progress_ratio",
          "tideway_ddl_consumed_rows",
          "tideway_ddl_rows_per_second",
          "tideway_ddl_eta_seconds");

  /** A sample line's metric name. */
  private static final Pattern SAMPLE = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @TempDir Path dir;

  @Test
  void everyMetricTheDashboardQueriesIsExported() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
    assertThat(dashboard.path("templating").path("list").findValuesAsText("name"))
        .as("the dashboard picks its Prometheus data source itself")
        .contains("datasource");
    List<String> exprs = new ArrayList<>();
    collectExprs(dashboard.path("panels"), exprs);
    assertThat(exprs).as("PromQL of %s", DASHBOARD).hasSizeGreaterThan(10);
    for (String expr : exprs) {
      assertThat(metricNames(List.of(expr)))
          .as("the metrics of %s (a name outside %s is not checked)", expr, METRIC)
          .isNotEmpty();
    }
    Set<String> used = metricNames(exprs);

    Map<String, Set<String>> exposed = new LinkedHashMap<>();
    Map<String, Set<String>> families = new LinkedHashMap<>();
    for (String process : List.of("meta", "compute")) {
      exposed.put(process, new TreeSet<>());
      families.put(process, new TreeSet<>());
    }
    Playground.Options o =
        new Playground.Options(
            dir, "127.0.0.1", 0, TestPorts.free(), TestPorts.free(), TestPorts.free(), 100);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c =
            DriverManager.getConnection(
                "jdbc:postgresql://127.0.0.1:" + p.pgPort() + "/dev?user=root");
        Statement st = c.createStatement()) {
      Map<String, Integer> ports =
          Map.of("meta", o.metaHttpPort(), "compute", p.compute().httpPort());
      assertThat(ports.get("compute")).as("the compute node serves /metrics").isPositive();
      st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO t SELECT x, x * 7 FROM generate_series(1, 20000) AS x");
      st.execute("FLUSH");
      st.execute(
          "CREATE MATERIALIZED VIEW agg AS SELECT v % 10 AS g, count(*) AS n, sum(v) AS s"
              + " FROM t GROUP BY v % 10");
      // every odd k divides by zero: its value turns NULL and the error is counted
      st.execute("CREATE MATERIALIZED VIEW errs AS SELECT k, 100 / (k % 2 - 1) AS d FROM t");
      st.execute("INSERT INTO t SELECT x, x FROM generate_series(20001, 20100) AS x");
      st.execute("FLUSH");
      assertThat(count(st, "SELECT sum(n) FROM agg")).isEqualTo(20_100);
      assertThat(count(st, "SELECT count(*) FROM errs WHERE d IS NULL")).isEqualTo(10_050);

      // a throttled background creation, scraped until the leader shows all its progress gauges
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("SET backfill_rate_limit = 500");
      st.execute(
          "CREATE MATERIALIZED VIEW slow AS SELECT k % 100 AS g, max(v) AS m FROM t"
              + " GROUP BY k % 100");
      long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      do {
        TimeUnit.MILLISECONDS.sleep(250);
        for (String process : exposed.keySet()) {
          Exposition e = scrape(ports.get(process));
          exposed.get(process).addAll(e.samples());
          families.get(process).addAll(e.families());
        }
      } while (!exposed.get("meta").containsAll(BACKFILL_GAUGES) && System.nanoTime() < by);
      st.execute("DROP MATERIALIZED VIEW slow");
    }
    exposed.forEach((process, names) -> System.out.println(process + " exposes " + names));

    assertThat(missing(Set.of("tideway_no_such_metric_total"), exposed))
        .as("the check catches a name nobody exports")
        .containsExactly("tideway_no_such_metric_total");
    List<String> missing = missing(used, exposed);
    StringBuilder hints = new StringBuilder();
    for (String name : missing) {
      exposed.forEach(
          (process, samples) -> {
            List<String> like = samples.stream().filter(n -> n.startsWith(name + "_")).toList();
            if (!like.isEmpty() || families.get(process).contains(name)) {
              hints.append(
                  String.format(
                      "%n%s is no sample name but %s exposes %s%s",
                      name,
                      process,
                      like,
                      families.get(process).contains(name) ? " of that family" : ""));
            }
          });
    }
    assertThat(missing)
        .as(
            "metrics %s queries that no process exposes: %s%s%nmeta exposes %s%ncompute exposes"
                + " %s",
            DASHBOARD.getFileName(), missing, hints, exposed.get("meta"), exposed.get("compute"))
        .isEmpty();
  }

  /** The {@code expr} of every target of every panel, rows' nested panels included. */
  private static void collectExprs(JsonNode panels, List<String> out) {
    for (JsonNode panel : panels) {
      for (JsonNode target : panel.path("targets")) {
        String expr = target.path("expr").asText("");
        assertThat(expr).as("a target of panel '%s' has a query", panel.path("title")).isNotBlank();
        out.add(expr);
      }
      collectExprs(panel.path("panels"), out);
    }
  }

  static Set<String> metricNames(List<String> exprs) {
    Set<String> names = new TreeSet<>();
    for (String e : exprs) {
      Matcher m = METRIC.matcher(e);
      while (m.find()) {
        names.add(m.group());
      }
    }
    return names;
  }

  /** The names in {@code used} that are no sample name of any process. */
  static List<String> missing(Set<String> used, Map<String, Set<String>> exposed) {
    List<String> out = new ArrayList<>();
    for (String name : used) {
      if (exposed.values().stream().noneMatch(s -> s.contains(name))) {
        out.add(name);
      }
    }
    return out;
  }

  /** What one {@code /metrics} page exposes. */
  private record Exposition(Set<String> families, Set<String> samples) {}

  /**
   * The metric families ({@code # TYPE} lines) and sample names (each line's name before its labels
   * and value) of the Prometheus text on {@code /metrics} of {@code port}.
   */
  private static Exposition scrape(int port) throws Exception {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("GET /metrics on port %s", port).isEqualTo(200);
    Set<String> families = new TreeSet<>();
    Set<String> samples = new TreeSet<>();
    for (String line : r.body().split("\n")) {
      if (line.startsWith("# TYPE ")) {
        families.add(line.split(" ")[2]);
      } else if (!line.isBlank() && !line.startsWith("#")) {
        Matcher m = SAMPLE.matcher(line);
        assertThat(m.lookingAt()).as("a sample line of port %s: %s", port, line).isTrue();
        samples.add(m.group());
      }
    }
    return new Exposition(families, samples);
  }

  private static long count(Statement st, String sql) throws Exception {
    try (ResultSet rs = st.executeQuery(sql)) {
      assertThat(rs.next()).as(sql).isTrue();
      return rs.getLong(1);
    }
  }
}

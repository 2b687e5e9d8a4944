package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meta dashboard in a real browser: headless Chromium loads the playground's meta HTTP page
 * while a background materialized view backfills at a limited rate, runs its script against the
 * JSON API and must show the job being created with its progress bar, its rows and phase
 * (THROTTLED: the rate limit was set before the CREATE, and showed as SNAPSHOT until an ALTER), the
 * compute node, recent barriers and a barrier latency chart. The job's page charts a progress that
 * rises and lists backfill actors whose rows sum to the job's consumed rows, with the throttle and
 * the fragment graph. Once the job is created, the dashboard shows it CREATED, no job in progress,
 * and the finished backfill in the history with its measured progress error. The backfill actors
 * show their vnodes done growing one by one; the cluster API shows the compute node's heap and its
 * store's compactions; a view that divides by zero on some rows lists its expression errors (kind,
 * count, last error) on its page. A screenshot of each page (dashboard, job, cluster, the erring
 * job) goes to {@code target/dashboard/}. Without Chromium the class is skipped, except on CI
 * (environment variable {@code CI} set), where {@code .ci/run} installs Debian's chromium.
 */
public class DashboardIT {
  @TempDir Path dir;

  /** The browser on the PATH, or null. */
  public static String chromium() {
    for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
      for (String d : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
        File f = new File(d, name);
        if (f.canExecute()) {
          return f.getPath();
        }
      }
    }
    return null;
  }

  /** The DOM after the page's script ran for a few (virtual) seconds. */
  public static String render(String browser, int port) throws Exception {
    return render(browser, port, "/");
  }

  /** The DOM of page {@code path} after its script ran for a few (virtual) seconds. */
  public static String render(String browser, int port, String path) throws Exception {
    return new String(chromium(browser, port, path, "--dump-dom"), StandardCharsets.UTF_8);
  }

  /**
   * A screenshot of page {@code path} in the build directory ({@code target/dashboard/NAME.png});
   * fails unless it is big enough to hold a drawn page (a blank one is a few KiB).
   */
  static Path screenshot(String browser, int port, String path, String name) throws Exception {
    Path dir = Path.of("target", "dashboard").toAbsolutePath();
    Files.createDirectories(dir);
    Path png = dir.resolve(name + ".png");
    Files.deleteIfExists(png);
    chromium(browser, port, path, "--window-size=1280,1600", "--screenshot=" + png);
    assertThat(png).as("screenshot of %s", path).exists();
    assertThat(Files.size(png)).as("screenshot of %s is a drawn page", path).isGreaterThan(40_000);
    return png;
  }

  private static byte[] chromium(String browser, int port, String path, String... args)
      throws Exception {
    List<String> cmd =
        new java.util.ArrayList<>(
            List.of(
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--hide-scrollbars",
                "--virtual-time-budget=4000"));
    cmd.addAll(List.of(args));
    cmd.add("http://127.0.0.1:" + port + path);
    Process p =
        new ProcessBuilder(cmd)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .directory(Path.of("target").toAbsolutePath().toFile())
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium ends").isTrue();
    return out;
  }

  /** The number in group 1 of {@code regex}'s first match in {@code dom}. */
  static String match(String dom, String regex, String what) {
    Matcher m = Pattern.compile(regex).matcher(dom);
    assertThat(m.find()).as("the page shows %s: %s", what, dom).isTrue();
    return m.group(1);
  }

  /** The inner HTML of the element with id {@code id} (tables here hold no nested tbody). */
  public static String section(String dom, String id) {
    Matcher m = Pattern.compile("id=\"" + id + "\">(.*?)</tbody>", Pattern.DOTALL).matcher(dom);
    assertThat(m.find()).as("the page has #%s: %s", id, dom).isTrue();
    return m.group(1);
  }

  /** Whether the job page's consumed rows and its actors' sum come from the same commit. */
  static boolean sameEpoch(String jobPage) {
    Matcher a = Pattern.compile("id=\"job-consumed\" data-epoch=\"(\\d+)\"").matcher(jobPage);
    Matcher b = Pattern.compile("id=\"actors-sum\" data-epoch=\"(\\d+)\"").matcher(jobPage);
    return a.find() && b.find() && a.group(1).equals(b.group(1));
  }

  static void awaitConsumed(Statement st, long rows) throws Exception {
    long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < by) {
      List<String> r =
          PlaygroundIT.rows(st, "SELECT consumed_rows FROM rw_catalog.rw_ddl_progress");
      if (!r.isEmpty() && !"null".equals(r.get(0)) && Long.parseLong(r.get(0)) >= rows) {
        return;
      }
      TimeUnit.MILLISECONDS.sleep(200);
    }
    throw new AssertionError("the backfill did not reach " + rows + " rows in 60 s");
  }

  @Test
  void theDashboardShowsABackfillInProgressAndThenTheCreatedJob() throws Exception {
    String browser = chromium();
    if (browser == null) {
      String why = "chromium not found on PATH: install Debian's chromium (.ci/run does)";
      if (System.getenv("CI") != null) {
        throw new AssertionError(why);
      }
      Assumptions.assumeTrue(false, why);
    }
    Playground.Options o = PlaygroundIT.options(dir);
    try (Playground p = Playground.start(o, Clock.system());
        Connection c = PlaygroundIT.connect(p);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (k INT PRIMARY KEY, v INT)");
      st.execute("INSERT INTO t SELECT x, x * 7 FROM generate_series(1, 20000) AS x");
      st.execute("FLUSH");
      st.execute("SET BACKGROUND_DDL = true");
      st.execute("SET backfill_rate_limit = 400");
      st.execute(
          "CREATE MATERIALIZED VIEW dash_mv AS SELECT v % 10 AS g, count(*) AS n FROM t"
              + " GROUP BY v % 10");
      long by = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (System.nanoTime() < by) {
        List<String> r =
            PlaygroundIT.rows(st, "SELECT consumed_rows FROM rw_catalog.rw_ddl_progress");
        if (!r.isEmpty() && !"null".equals(r.get(0)) && Long.parseLong(r.get(0)) > 0) {
          break;
        }
        TimeUnit.MILLISECONDS.sleep(200);
      }
      String jobId = PlaygroundIT.rows(st, "SELECT ddl_id FROM rw_catalog.rw_ddl_progress").get(0);
      // the rate limit set before the CREATE shows from the start, as an ALTER's would
      assertThat(PlaygroundIT.rows(st, "SELECT phase FROM rw_catalog.rw_ddl_progress"))
          .containsExactly("THROTTLED");

      String dom = render(browser, o.metaHttpPort());
      assertThat(dom).as("the script ran against the API").contains("data-loaded=\"true\"");
      String progress = section(dom, "progress");
      assertThat(progress)
          .as("the job being created, its bar, rows and phase")
          .contains("data-job=\"" + jobId + "\"")
          .contains("dash_mv")
          .contains("class=\"bar\"")
          .contains("/ 20000")
          .contains("THROTTLED")
          .contains("%");
      assertThat(section(dom, "jobs")).contains("dash_mv").contains("CREATING");
      assertThat(section(dom, "nodes")).contains("compute");
      assertThat(section(dom, "barriers")).doesNotContain("no barrier yet");
      assertThat(dom)
          .as("the barrier latency chart has points")
          .containsPattern("id=\"chart-latency\"[^>]*data-points=\"[1-9]");

      // the job page: its progress chart rises, its actors' rows sum to the job's consumed rows
      awaitConsumed(st, 2_500); // a few seconds of progress: several points
      String page = "/jobs/" + jobId;
      String job = render(browser, o.metaHttpPort(), page);
      for (int i = 0; i < 3 && !sameEpoch(job); i++) {
        job = render(browser, o.metaHttpPort(), page); // the two reads straddled a commit
      }
      assertThat(job).contains("data-loaded=\"true\"").contains("dash_mv (job " + jobId + ")");
      String[] points =
          match(job, "id=\"chart-progress\"[^>]*data-values=\"([^\"]*)\"", "a progress chart")
              .split(",");
      assertThat(points.length).as("progress points").isGreaterThanOrEqualTo(3);
      double first = Double.parseDouble(points[0]);
      double last = Double.parseDouble(points[points.length - 1]);
      for (int i = 1; i < points.length; i++) {
        assertThat(Double.parseDouble(points[i]))
            .as("progress never goes back: %s", String.join(",", points))
            .isGreaterThanOrEqualTo(Double.parseDouble(points[i - 1]));
      }
      assertThat(last).as("progress rises: %s", String.join(",", points)).isGreaterThan(first);
      assertThat(sameEpoch(job)).as("actors and job read at one commit").isTrue();
      long consumed = Long.parseLong(match(job, "id=\"job-consumed\"[^>]*>(\\d+)<", "rows"));
      Matcher actorRows = Pattern.compile("class=\"num consumed\">(\\d+)<").matcher(job);
      long sum = 0;
      int actors = 0;
      while (actorRows.find()) {
        sum += Long.parseLong(actorRows.group(1));
        actors++;
      }
      assertThat(actors).as("backfill actor rows").isGreaterThan(0);
      // each actor reports its vnodes done as its snapshot moves vnode by vnode
      Matcher vnodes = Pattern.compile("class=\"num vnodes\">(\\d+) / (\\d+)<").matcher(job);
      boolean partly = false;
      while (vnodes.find()) {
        int d = Integer.parseInt(vnodes.group(1));
        partly |= d > 0 && d < Integer.parseInt(vnodes.group(2));
      }
      assertThat(partly).as("an actor mid-way has some vnodes done: %s", job).isTrue();
      assertThat(sum).as("the actors' rows sum to the job's").isEqualTo(consumed);
      assertThat(consumed).isPositive();
      assertThat(job).contains("rate limit: 400 rows/s per actor").contains("<svg class=\"graph\"");
      screenshot(browser, o.metaHttpPort(), page, "job");

      long done = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!PlaygroundIT.rows(st, "SELECT ddl_id FROM rw_catalog.rw_ddl_progress").isEmpty()) {
        assertThat(System.nanoTime()).as("the backfill ends").isLessThan(done);
        TimeUnit.MILLISECONDS.sleep(300);
      }
      String after = render(browser, o.metaHttpPort());
      assertThat(section(after, "progress")).contains("no job is being created");
      assertThat(section(after, "jobs")).contains("dash_mv").contains("CREATED");

      // the finished backfill is in the history (the leader writes it just after the flip)
      String history = section(after, "history");
      for (int i = 0; i < 10 && !history.contains("dash_mv"); i++) {
        TimeUnit.MILLISECONDS.sleep(500);
        history = section(render(browser, o.metaHttpPort()), "history");
      }
      assertThat(history).contains("dash_mv").contains(">20000<");
      double error =
          Double.parseDouble(
              match(history, "class=\"num progress-error\">([0-9.]+) points<", "progress error"));
      // a static upstream: the key count the bar divides by is the final row count
      assertThat(error).as("progress error in points").isBetween(0.0, 1.0);
      screenshot(browser, o.metaHttpPort(), "/", "dashboard");
      screenshot(browser, o.metaHttpPort(), "/cluster", "cluster");
      assertThat(render(browser, o.metaHttpPort(), "/cluster"))
          .contains("dash_mv")
          .contains("L0")
          .contains(">compute<");

      // the compute node reports its heap and its store's compactions (the backfill's
      // checkpoints filled L0 past its trigger) with its checkpoints
      Pattern node =
          Pattern.compile(
              "\"role\":\"compute\".*?\"status\":\\{\"heapUsedBytes\":(\\d+),"
                  + "\"heapMaxBytes\":(\\d+),\"compaction\":\\{\"running\":\\d+,"
                  + "\"finished\":(\\d+),\"failed\":\\d+,\"readBytes\":(\\d+),"
                  + "\"writtenBytes\":(\\d+),\"lastAtMs\":(\\d+|null)");
      Matcher m = node.matcher(get(o.metaHttpPort(), "/api/cluster/detail"));
      for (int i = 0; i < 40 && !(m.find() && Long.parseLong(m.group(3)) > 0); i++) {
        TimeUnit.MILLISECONDS.sleep(500);
        m = node.matcher(get(o.metaHttpPort(), "/api/cluster/detail"));
      }
      assertThat(m.find(0)).as("the compute node's status").isTrue();
      assertThat(Long.parseLong(m.group(1))).as("heap used").isPositive();
      assertThat(Long.parseLong(m.group(2))).as("heap max").isPositive();
      assertThat(Long.parseLong(m.group(3))).as("compactions finished").isPositive();
      assertThat(Long.parseLong(m.group(4))).as("compaction read bytes").isPositive();
      assertThat(Long.parseLong(m.group(5))).as("compaction written bytes").isPositive();
      assertThat(m.group(6)).as("the last compaction's time").isNotEqualTo("null");

      // a view whose expression fails on some rows: its job page lists the errors
      st.execute("CREATE TABLE e (k INT PRIMARY KEY, a INT, b INT)");
      st.execute("INSERT INTO e VALUES (1, 10, 2), (2, 5, 0), (3, 7, 0)");
      st.execute("FLUSH");
      st.execute("SET BACKGROUND_DDL = false");
      st.execute("CREATE MATERIALIZED VIEW div_mv AS SELECT k, a / b AS q FROM e");
      String divJob =
          match(get(o.metaHttpPort(), "/api/jobs"), "\"id\":(\\d+),\"name\":\"div_mv\"", "div_mv");
      Pattern errors =
          Pattern.compile(
              "\"expressionErrors\":\\[\\{\"fragmentId\":\\d+,\"kind\":\"DIVISION_BY_ZERO\","
                  + "\"count\":(\\d+),\"lastError\":\"[^\"]+\",\"lastAtMs\":[1-9]");
      String detail = get(o.metaHttpPort(), "/api/jobs/" + divJob);
      for (int i = 0; i < 20 && !errors.matcher(detail).find(); i++) {
        TimeUnit.MILLISECONDS.sleep(500); // meta collects from the nodes while someone looks
        detail = get(o.metaHttpPort(), "/api/jobs/" + divJob);
      }
      assertThat(Long.parseLong(match(detail, errors.pattern(), "expression errors")))
          .as("one error per row divided by zero")
          .isGreaterThanOrEqualTo(2);
      String divPage = render(browser, o.metaHttpPort(), "/jobs/" + divJob);
      assertThat(section(divPage, "expression-errors"))
          .contains("DIVISION_BY_ZERO")
          .doesNotContain("no expression error");
      assertThat(section(divPage, "errors")).contains("set to NULL");
      screenshot(browser, o.metaHttpPort(), "/jobs/" + divJob, "job-errors");
    }
  }

  /** The body of a GET on the meta HTTP port. */
  static String get(int port, String path) throws Exception {
    java.net.http.HttpResponse<String> r =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create("http://127.0.0.1:" + port + path))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as("GET %s: %s", path, r.body()).isEqualTo(200);
    return r.body();
  }
}

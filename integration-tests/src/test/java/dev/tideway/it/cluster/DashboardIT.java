package dev.tideway.it.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tideway.cli.cluster.Playground;
import dev.tideway.common.time.Clock;
import java.io.File;
import java.nio.charset.StandardCharsets;
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
 * compute node and recent barriers; once the job is created, the page shows it CREATED and no job
 * in progress. Without Chromium the class is skipped, except on CI (environment variable {@code CI}
 * set), where {@code .ci/run} installs Debian's chromium.
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
    Process p =
        new ProcessBuilder(
                browser,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--virtual-time-budget=4000",
                "--dump-dom",
                "http://127.0.0.1:" + port + "/")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium ends").isTrue();
    return new String(out, StandardCharsets.UTF_8);
  }

  /** The inner HTML of the element with id {@code id} (tables here hold no nested tbody). */
  public static String section(String dom, String id) {
    Matcher m = Pattern.compile("id=\"" + id + "\">(.*?)</tbody>", Pattern.DOTALL).matcher(dom);
    assertThat(m.find()).as("the page has #%s: %s", id, dom).isTrue();
    return m.group(1);
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

      long done = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!PlaygroundIT.rows(st, "SELECT ddl_id FROM rw_catalog.rw_ddl_progress").isEmpty()) {
        assertThat(System.nanoTime()).as("the backfill ends").isLessThan(done);
        TimeUnit.MILLISECONDS.sleep(300);
      }
      String after = render(browser, o.metaHttpPort());
      assertThat(section(after, "progress")).contains("no job is being created");
      assertThat(section(after, "jobs")).contains("dash_mv").contains("CREATED");
    }
  }
}

package dev.tideway.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tideway.cli.local.Probes;
import dev.tideway.it.cluster.TestPorts;
import dev.tideway.storage.objectstore.S3Fixture;
import dev.tideway.storage.objectstore.S3ObjectStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chart drives a real cluster: the chart is rendered for a store on S3 (s3proxy in this JVM,
 * credentials from a Secret), and each Tideway workload's container (its arguments and environment
 * exactly as rendered; {@code $(VAR)}, field and Secret references resolved as the kubelet would)
 * starts as a local process from the built jar: two metas, two compute nodes (their ids from their
 * pod names' ordinals) and a frontend. Only what a laptop lacks is remapped: ports to free loopback
 * ports, the advertised pod addresses to 127.0.0.1, ZooKeeper to the jar's own. The cluster forms,
 * the probes the chart declares answer as it says (ready once the role serves), and a table and a
 * view created over psql's protocol read back right.
 */
class HelmClusterIT {
  @TempDir Path dir;

  private final HttpClient http = HttpClient.newHttpClient();

  /** A process the test started from a rendered container. */
  record Pod(String name, Process process, Map<String, Integer> ports, JsonNode container) {}

  @Test
  void theRenderedChartRunsAClusterThatServesSql() throws Exception {
    Path jar = Path.of("").toAbsolutePath().getParent().resolve("cli/target/tideway.jar");
    List<Pod> pods = new ArrayList<>();
    try (S3Fixture s3 = new S3Fixture(dir.resolve("s3"))) {
      Map<String, String> values = new LinkedHashMap<>();
      values.put("store.url", s3.url("chart"));
      values.put("store.s3.endpoint", s3.endpoint());
      values.put("store.s3.pathStyle", "true");
      values.put("store.s3.checksums", "when-required");
      values.put("store.s3.conditionalWrites", "false");
      values.put("store.s3.credentials.existingSecret", "tideway-s3");
      values.put("meta.barrierIntervalMs", "250");
      Map<String, Map<String, String>> secrets =
          Map.of(
              "tideway-s3", Map.of("access-key", S3Fixture.ACCESS, "secret-key", S3Fixture.SECRET));
      Map<String, JsonNode> docs = HelmChartTest.render(values);

      int zkPort = TestPorts.free();
      String zk = "127.0.0.1:" + zkPort;
      pods.add(
          start(
              jar,
              "zookeeper-0",
              List.of(
                  "zookeeper", "--port", "" + zkPort, "--data-dir", dir.resolve("zk").toString()),
              Map.of(),
              Map.of(),
              null));
      for (String workload :
          List.of(
              "Deployment test-tideway-meta",
              "StatefulSet test-tideway-compute",
              "StatefulSet test-tideway-frontend")) {
        JsonNode w = docs.get(workload);
        assertThat(w).as(workload).isNotNull();
        JsonNode c = w.at("/spec/template/spec/containers/0");
        for (int i = 0; i < w.at("/spec/replicas").asInt(); i++) {
          String podName = w.at("/metadata/name").asText() + "-" + i;
          Map<String, Integer> ports = new HashMap<>();
          for (JsonNode p : c.path("ports")) {
            ports.put(p.path("name").asText(), TestPorts.free());
          }
          Map<String, String> env = podEnv(c, podName, secrets);
          List<String> args = new ArrayList<>();
          for (JsonNode a : c.path("args")) {
            args.add(remap(expand(a.asText(), env), zk, ports, c));
          }
          pods.add(start(jar, podName, args, env, ports, c));
        }
      }

      // every probe the chart declares answers as it says once the role serves
      for (Pod p : pods) {
        if (p.container() == null) {
          continue;
        }
        awaitProbe(p, "readinessProbe", Duration.ofMinutes(3));
        assertThat(probe(p, "livenessProbe")).as("%s liveness", p.name()).isEqualTo(200);
      }

      Pod frontend = pods.stream().filter(p -> p.name().contains("frontend")).findFirst().get();
      try (Connection conn =
              DriverManager.getConnection(
                  "jdbc:postgresql://127.0.0.1:" + frontend.ports().get("postgres") + "/dev",
                  "root",
                  "");
          Statement st = conn.createStatement()) {
        st.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer INT, amount BIGINT)");
        st.execute(
            "INSERT INTO orders SELECT g, CAST(g % 50 AS INT), g * 2 FROM generate_series(1, 20000) g");
        st.execute(
            "CREATE MATERIALIZED VIEW per_customer AS SELECT customer, count(*) AS n, sum(amount) AS s"
                + " FROM orders GROUP BY customer");
        st.execute("INSERT INTO orders VALUES (20001, 7, 1000)");
        st.execute("FLUSH");
        assertThat(
                Probes.sortedRows(
                    st, "SELECT count(*), sum(n), sum(s) FROM per_customer", String::valueOf))
            .containsExactly("50|20001|" + (20000L * 20001 + 1000));
        assertThat(Probes.sortedRows(st, "SELECT * FROM per_customer", String::valueOf))
            .isEqualTo(
                Probes.sortedRows(
                    st,
                    "SELECT customer, count(*) AS n, sum(amount) AS s FROM orders GROUP BY customer",
                    String::valueOf));
      }
      try (S3ObjectStore store = s3.open("chart")) {
        assertThat(store.list("sst/")).as("the state went to the chart's S3 store").isNotEmpty();
      }
      // what each pod said when it came up, for the record
      for (Pod p : pods) {
        Files.readAllLines(dir.resolve(p.name() + ".log")).stream()
            .filter(
                l ->
                    l.contains(" up at ")
                        || l.contains("up: psql")
                        || l.contains("serving at")
                        || l.contains("Up in the cluster"))
            .limit(2)
            .forEach(l -> System.out.println("HelmClusterIT " + p.name() + ": " + l));
      }
    } finally {
      for (Pod p : pods) {
        p.process().destroy();
      }
      for (Pod p : pods) {
        if (!p.process().waitFor(20, TimeUnit.SECONDS)) {
          p.process().destroyForcibly();
        }
      }
    }
  }

  /** The container's environment as the kubelet gives it: values, fields, Secret keys. */
  private static Map<String, String> podEnv(
      JsonNode c, String podName, Map<String, Map<String, String>> secrets) {
    Map<String, String> env = new LinkedHashMap<>();
    for (JsonNode e : c.path("env")) {
      String name = e.path("name").asText();
      if (e.has("value")) {
        env.put(name, e.path("value").asText());
        continue;
      }
      JsonNode from = e.path("valueFrom");
      if (from.has("fieldRef")) {
        String field = from.at("/fieldRef/fieldPath").asText();
        env.put(
            name,
            switch (field) {
              case "metadata.name" -> podName;
              case "metadata.namespace" -> "streams";
              case "status.podIP" -> "127.0.0.1";
              default -> throw new AssertionError("unexpected field reference " + field);
            });
      } else if (from.has("secretKeyRef")) {
        String secret = from.at("/secretKeyRef/name").asText();
        String key = from.at("/secretKeyRef/key").asText();
        assertThat(secrets).as("Secret %s", secret).containsKey(secret);
        env.put(name, secrets.get(secret).get(key));
      }
    }
    env.put("HOSTNAME", podName); // a pod's host name is its name
    return env;
  }

  /** {@code $(VAR)} in an argument, from the container's environment (as Kubernetes expands it). */
  private static String expand(String arg, Map<String, String> env) {
    String out = arg;
    for (Map.Entry<String, String> e : env.entrySet()) {
      out = out.replace("$(" + e.getKey() + ")", e.getValue());
    }
    assertThat(out).as("every reference in %s resolves", arg).doesNotContain("$(");
    return out;
  }

  /** Remaps what a laptop lacks: pod DNS names, the ZooKeeper service, fixed container ports. */
  private static String remap(String arg, String zk, Map<String, Integer> ports, JsonNode c) {
    int eq = arg.indexOf('=');
    if (eq < 0) {
      return arg;
    }
    String flag = arg.substring(0, eq);
    String value = arg.substring(eq + 1);
    return switch (flag) {
      case "--zookeeper" -> flag + "=" + zk;
      case "--advertise-host" -> flag + "=127.0.0.1";
      case "--port", "--http-port", "--pg-port" -> {
        for (JsonNode p : c.path("ports")) {
          if (p.path("containerPort").asText().equals(value)) {
            yield flag + "=" + ports.get(p.path("name").asText());
          }
        }
        throw new AssertionError(arg + " names no declared container port");
      }
      default -> arg;
    };
  }

  private Pod start(
      Path jar,
      String name,
      List<String> args,
      Map<String, String> env,
      Map<String, Integer> ports,
      JsonNode container)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx384m");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-jar");
    cmd.add(jar.toString());
    cmd.addAll(args);
    Path log = dir.resolve(name + ".log");
    ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true);
    b.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    b.environment().putAll(env);
    b.environment().remove("TIDEWAY_JAVA_OPTS"); // the JVM options above stand for it
    Files.writeString(dir.resolve(name + ".cmd"), String.join(" ", cmd));
    return new Pod(name, b.start(), ports, container);
  }

  /** The status of the container's declared HTTP probe, at its (remapped) port; -1 when down. */
  private int probe(Pod p, String which) throws InterruptedException {
    JsonNode get = p.container().at("/" + which + "/httpGet");
    assertThat(get.isMissingNode()).as("%s declares an HTTP %s", p.name(), which).isFalse();
    int port = p.ports().get(get.path("port").asText());
    try {
      return http.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + port + get.path("path").asText()))
                  .timeout(Duration.ofSeconds(3))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return -1;
    }
  }

  private void awaitProbe(Pod p, String which, Duration within) throws Exception {
    long deadline = System.nanoTime() + within.toNanos();
    int status;
    while ((status = probe(p, which)) != 200) {
      assertThat(p.process().isAlive())
          .as("%s is running (see %s)", p.name(), dir.resolve(p.name() + ".log"))
          .isTrue();
      assertThat(System.nanoTime())
          .as("%s %s answers 200 within %s (last: %s)", p.name(), which, within, status)
          .isLessThan(deadline);
      Thread.sleep(250);
    }
  }
}

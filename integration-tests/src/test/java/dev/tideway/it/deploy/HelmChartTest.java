package dev.tideway.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import dev.tideway.cli.Tideway;
import dev.tideway.common.config.TidewayConfig;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The Helm chart in {@code helm/tideway}, through Helm itself (in-process): {@code lint --strict}
 * is clean, and {@code template} renders for the default values and four other value sets. Every
 * rendered object parses as its Kubernetes type with no field the type lacks (a misspelt or
 * misplaced field fails), every Tideway container's arguments parse with the real {@code tideway}
 * command line, and every {@code TIDEWAY_*} variable the chart sets is a configuration key's twin
 * (the loader refuses any other). Probes, security contexts and disruption budgets are checked on
 * every workload.
 */
class HelmChartTest {
  static final Path CHART =
      Path.of("").toAbsolutePath().getParent().resolve("helm").resolve("tideway");
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  static final Map<String, Class<? extends HasMetadata>> TYPES =
      Map.of(
          "Deployment", Deployment.class,
          "StatefulSet", StatefulSet.class,
          "Service", Service.class,
          "ConfigMap", ConfigMap.class,
          "PodDisruptionBudget", PodDisruptionBudget.class);

  /** The value sets: name to {@code --set} pairs. */
  static final Map<String, Map<String, String>> VALUE_SETS = new LinkedHashMap<>();

  static {
    VALUE_SETS.put("defaults", Map.of());
    VALUE_SETS.put(
        "external zookeeper",
        Map.of("zookeeper.enabled", "false", "zookeeper.external", "zk-0.zk:2181,zk-1.zk:2181"));
    VALUE_SETS.put(
        "s3 with a secret",
        Map.of(
            "store.url", "s3://analytics-state/tideway",
            "store.s3.endpoint", "http://minio.storage:9000",
            "store.s3.pathStyle", "true",
            "store.s3.checksums", "when-required",
            "store.s3.credentials.existingSecret", "tideway-s3"));
    VALUE_SETS.put(
        "monitoring and tls",
        Map.of(
            "monitoring.serviceMonitor.enabled", "true",
            "frontend.tls.existingSecret", "tideway-tls",
            "meta.controlAllowed[0]", "10.0.0.0/8",
            "meta.controlAllowed[1]", "fd00::/8",
            "frontend.replicas", "2",
            "compute.replicas", "3",
            "antiAffinity", "hard"));
    VALUE_SETS.put(
        "shared volume",
        Map.of(
            "store.url", "file:///data/store",
            "store.sharedVolume.enabled", "true",
            "store.sharedVolume.claimName", "tideway-store",
            "antiAffinity", "none"));
  }

  @Test
  void lintIsCleanWithStrictChecks() {
    LintResult r = new Helm(CHART).lint().strict().call();
    assertThat(r.isFailed()).as("helm lint --strict: %s", r.getMessages()).isFalse();
    assertThat(
            r.getMessages().stream().filter(m -> m.contains("[ERROR]") || m.contains("[WARNING]")))
        .isEmpty();
  }

  @Test
  void everyValueSetRendersObjectsKubernetesAccepts() throws Exception {
    for (Map.Entry<String, Map<String, String>> set : VALUE_SETS.entrySet()) {
      Map<String, JsonNode> docs = render(set.getValue());
      List<HasMetadata> objects = new ArrayList<>();
      for (Map.Entry<String, JsonNode> d : docs.entrySet()) {
        String kind = d.getValue().path("kind").asText();
        if (kind.equals("ServiceMonitor")) {
          assertThat(d.getValue().at("/spec/endpoints/0/port").asText()).isEqualTo("http");
          continue;
        }
        assertThat(TYPES)
            .as("%s: a kind the test knows (%s)", set.getKey(), d.getKey())
            .containsKey(kind);
        HasMetadata o = YAML.treeToValue(d.getValue(), TYPES.get(kind));
        List<String> unknown = new ArrayList<>();
        unknownFields(o, kind + " " + o.getMetadata().getName(), unknown);
        assertThat(unknown).as("%s: fields Kubernetes does not know", set.getKey()).isEmpty();
        objects.add(o);
      }
      checkWorkloads(set.getKey(), set.getValue(), objects);
    }
  }

  @Test
  void theDefaultsRenderTheWholeCluster() throws Exception {
    Map<String, String> kinds = new TreeMap<>();
    render(Map.of())
        .values()
        .forEach(
            d -> kinds.put(d.at("/metadata/name").asText() + " " + d.path("kind").asText(), ""));
    assertThat(kinds.keySet())
        .contains(
            "test-tideway-meta Deployment",
            "test-tideway-meta Service",
            "test-tideway-compute StatefulSet",
            "test-tideway-compute-headless Service",
            "test-tideway-frontend StatefulSet",
            "test-tideway-frontend Service",
            "test-tideway-zookeeper StatefulSet",
            "test-tideway-zookeeper-headless Service",
            "test-tideway-meta PodDisruptionBudget",
            "test-tideway-compute PodDisruptionBudget",
            "test-tideway-frontend PodDisruptionBudget",
            "test-tideway-zookeeper PodDisruptionBudget",
            "test-tideway-grafana-dashboard ConfigMap")
        .noneMatch(k -> k.endsWith("ServiceMonitor"));
  }

  /** Renders the chart with {@code values}: each object by "kind name". */
  static Map<String, JsonNode> render(Map<String, String> values) throws Exception {
    TemplateCommand t = new Helm(CHART).template().withName("test").withNamespace("streams");
    values.forEach(t::set);
    String out = t.call();
    Map<String, JsonNode> docs = new LinkedHashMap<>();
    for (String doc : out.split("(?m)^---\\s*$")) {
      JsonNode n = YAML.readTree(doc);
      if (n != null && !n.isEmpty() && n.has("kind")) {
        docs.put(n.path("kind").asText() + " " + n.at("/metadata/name").asText(), n);
      }
    }
    assertThat(docs).as("rendered objects").isNotEmpty();
    return docs;
  }

  private static void checkWorkloads(
      String set, Map<String, String> values, List<HasMetadata> objects) throws Exception {
    for (HasMetadata o : objects) {
      PodSpec pod =
          o instanceof Deployment d
              ? d.getSpec().getTemplate().getSpec()
              : o instanceof StatefulSet s ? s.getSpec().getTemplate().getSpec() : null;
      if (pod == null) {
        continue;
      }
      for (Container c : pod.getContainers()) {
        String where = set + ": " + o.getMetadata().getName() + "/" + c.getName();
        assertThat(c.getLivenessProbe()).as("%s liveness probe", where).isNotNull();
        assertThat(c.getReadinessProbe()).as("%s readiness probe", where).isNotNull();
        assertThat(c.getResources().getRequests()).as("%s requests", where).isNotEmpty();
        assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
        assertThat(c.getSecurityContext().getCapabilities().getDrop()).contains("ALL");
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).as("%s non-root", where).isTrue();
        if (c.getName().equals("zookeeper")) {
          continue;
        }
        assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).as(where).isTrue();
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health/ready");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health/live");
        // the arguments parse with the real command line, $(VAR) as Kubernetes expands it
        Map<String, String> podEnv =
            Map.of(
                "POD_NAME",
                "test-tideway-" + c.getName() + "-0",
                "POD_IP",
                "10.1.2.3",
                "NAMESPACE",
                "streams");
        List<String> args =
            c.getArgs().stream().map(a -> expand(a, podEnv)).collect(Collectors.toList());
        assertThat(args.get(0)).isEqualTo(c.getName());
        Tideway.commandLine().parseArgs(args.toArray(String[]::new));
        assertThat(args).contains("--host=0.0.0.0");
        assertThat(args.stream().filter(a -> a.startsWith("--advertise-host=")).findFirst())
            .as("%s advertises an address its peers reach", where)
            .hasValueSatisfying(a -> assertThat(a).doesNotContain("0.0.0.0", "$("));
        String store = values.getOrDefault("store.url", "s3://tideway/state");
        assertThat(args).contains("--store=" + store);
        if (values.containsKey("zookeeper.external")) {
          assertThat(args).contains("--zookeeper=" + values.get("zookeeper.external"));
        }
        // every TIDEWAY_* variable is a configuration key's twin: the loader refuses others
        Map<String, String> env = new HashMap<>();
        for (EnvVar e : c.getEnv()) {
          if (e.getName().startsWith("TIDEWAY_")) {
            env.put(e.getName(), e.getValue() != null ? e.getValue() : "from-a-secret");
          }
        }
        TidewayConfig config = TidewayConfig.loader().environment(env).load();
        if (c.getName().equals("meta")) {
          assertThat(config.getStringList("tideway.meta.http.control-allowed"))
              .as("%s: the job actions' allowed addresses", where)
              .isEqualTo(
                  values.containsKey("meta.controlAllowed[0]")
                      ? List.of("10.0.0.0/8", "fd00::/8")
                      : List.of("127.0.0.0/8", "::1"));
        }
        if (store.startsWith("s3://")) {
          assertThat(env).containsKeys("TIDEWAY_STORAGE_S3_REGION", "TIDEWAY_STORAGE_S3_ENDPOINT");
        } else {
          assertThat(env).doesNotContainKey("TIDEWAY_STORAGE_S3_REGION");
        }
        if (values.containsKey("store.s3.credentials.existingSecret")) {
          EnvVar key =
              c.getEnv().stream()
                  .filter(e -> e.getName().equals("TIDEWAY_STORAGE_S3_SECRET_KEY"))
                  .findFirst()
                  .orElseThrow();
          assertThat(key.getValueFrom().getSecretKeyRef().getName()).isEqualTo("tideway-s3");
        }
        if (c.getName().equals("frontend") && values.containsKey("frontend.tls.existingSecret")) {
          assertThat(args).contains("--pg-tls-cert=/etc/tideway/tls/tls.crt");
        }
      }
    }
  }

  private static String expand(String arg, Map<String, String> env) {
    String out = arg;
    for (Map.Entry<String, String> e : env.entrySet()) {
      out = out.replace("$(" + e.getKey() + ")", e.getValue());
    }
    return out;
  }

  /**
   * Collects the fields of {@code o} (a fabric8 model object, recursively) that landed in an
   * "additional properties" map: fields its Kubernetes type does not have.
   */
  static void unknownFields(Object o, String path, List<String> out) throws Exception {
    if (o == null || !o.getClass().getName().startsWith("io.fabric8.")) {
      if (o instanceof Collection<?> c) {
        int i = 0;
        for (Object e : c) {
          unknownFields(e, path + "[" + i++ + "]", out);
        }
      } else if (o instanceof Map<?, ?> m) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
          unknownFields(e.getValue(), path + "." + e.getKey(), out);
        }
      }
      return;
    }
    for (Method m : o.getClass().getMethods()) {
      if (m.getParameterCount() != 0
          || !m.getName().startsWith("get")
          || m.getName().equals("getClass")) {
        continue;
      }
      Object v = m.invoke(o);
      if (m.getName().equals("getAdditionalProperties")) {
        if (v instanceof Map<?, ?> extra && !extra.isEmpty()) {
          out.add(path + ": " + extra.keySet());
        }
      } else {
        unknownFields(v, path + "." + m.getName().substring(3), out);
      }
    }
  }
}

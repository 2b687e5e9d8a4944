package dev.tideway.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each layer, its precedence and origin, and each error's message. */
class TidewayConfigTest {
  enum Mode {
    LOCAL_FS,
    S3
  }

  private static final Config REFERENCE =
      ConfigFactory.parseString(
          """
          tideway.meta {
            barrier-interval-ms = 1000
            listen = "127.0.0.1:5690"
          }
          tideway.storage {
            cache-size = 64MiB
            mode = local-fs
          }
          tideway.compute {
            parallelism = 4
            roles = [compute]
          }
          tideway.common.checks.expensive = false
          pekko.loglevel = INFO
          """,
          com.typesafe.config.ConfigParseOptions.defaults().setOriginDescription("reference.conf"));

  @TempDir Path dir;

  private TidewayConfig.Loader loader() {
    return TidewayConfig.loader().reference(REFERENCE);
  }

  private Path file(String text) throws IOException {
    Path f = dir.resolve("node.conf");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void defaultsAlone() {
    TidewayConfig c = loader().load();
    assertThat(
            c.getDuration(
                "tideway.meta.barrier-interval-ms", Duration.ofMillis(10), Duration.ofHours(1)))
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(c.getBytes("tideway.storage.cache-size", 0, Long.MAX_VALUE)).isEqualTo(64L << 20);
    assertThat(c.getEnum("tideway.storage.mode", Mode.class)).isEqualTo(Mode.LOCAL_FS);
    assertThat(c.getHostPort("tideway.meta.listen")).isEqualTo(new HostPort("127.0.0.1", 5690));
    assertThat(c.getStringList("tideway.compute.roles")).containsExactly("compute");
    assertThat(c.origin("tideway.meta.listen")).contains("reference.conf");
    assertThat(CommonSettings.from(c).expensiveChecks()).isFalse();
  }

  @Test
  void classPathDefaultsHaveCommonsSectionAndTheSerializerBinding() {
    TidewayConfig c = TidewayConfig.loader().load();
    assertThat(CommonSettings.from(c).expensiveChecks()).isFalse();
    assertThat(c.getString("pekko.actor.serializers.tideway-kryo"))
        .isEqualTo("dev.tideway.common.serde.TidewayPekkoSerializer");
    assertThat(
            c.underlying()
                .getString(
                    "pekko.actor.serialization-bindings.\"dev.tideway.common.serde.TidewayMessage\""))
        .isEqualTo("tideway-kryo");
  }

  @Test
  void fileBeatsDefaultsAndNamesItsLine() throws IOException {
    Path f = file("tideway.compute.parallelism = 8\n\ntideway.meta.listen = \"meta-0:5690\"\n");
    TidewayConfig c = loader().file(f).load();
    assertThat(c.getInt("tideway.compute.parallelism", 1, 1024)).isEqualTo(8);
    assertThat(c.getHostPort("tideway.meta.listen")).isEqualTo(new HostPort("meta-0", 5690));
    assertThat(c.origin("tideway.meta.listen")).contains("node.conf").contains("3");
    assertThat(c.getBytes("tideway.storage.cache-size", 0, Long.MAX_VALUE)).isEqualTo(64L << 20);
  }

  @Test
  void environmentBeatsFileAndHyphenatedKeysHaveTwins() throws IOException {
    Path f = file("tideway.meta.barrier-interval-ms = 500\n");
    TidewayConfig c =
        loader()
            .file(f)
            .environment(
                Map.of(
                    "TIDEWAY_META_BARRIER_INTERVAL_MS", "250ms",
                    "TIDEWAY_COMPUTE_ROLES", "[compute, frontend]",
                    "TIDEWAY_HOME", "/opt/tideway",
                    "PATH", "/usr/bin"))
            .load();
    assertThat(
            c.getDuration(
                "tideway.meta.barrier-interval-ms", Duration.ofMillis(10), Duration.ofHours(1)))
        .isEqualTo(Duration.ofMillis(250));
    assertThat(c.origin("tideway.meta.barrier-interval-ms"))
        .isEqualTo("environment variable TIDEWAY_META_BARRIER_INTERVAL_MS");
    assertThat(c.getStringList("tideway.compute.roles")).containsExactly("compute", "frontend");
  }

  @Test
  void tidewayConfigNamesTheFileWhenNoneIsGiven() throws IOException {
    Path f = file("tideway.compute.parallelism = 6\n");
    TidewayConfig c = loader().environment(Map.of("TIDEWAY_CONFIG", f.toString())).load();
    assertThat(c.getInt("tideway.compute.parallelism", 1, 1024)).isEqualTo(6);
  }

  @Test
  void overridesBeatEnvironment() {
    TidewayConfig c =
        loader()
            .environment(Map.of("TIDEWAY_COMPUTE_PARALLELISM", "2"))
            .override("tideway.compute.parallelism", "3", "command-line flag --parallelism")
            .load();
    assertThat(c.getInt("tideway.compute.parallelism", 1, 1024)).isEqualTo(3);
    assertThat(c.origin("tideway.compute.parallelism"))
        .isEqualTo("command-line flag --parallelism");
  }

  @Test
  void unknownTidewayEnvironmentVariableFailsSuggestingTheClosestKey() {
    assertThatThrownBy(
            () -> loader().environment(Map.of("TIDEWAY_META_BARIER_INTERVAL_MS", "5")).load())
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining(
            "environment variable TIDEWAY_META_BARIER_INTERVAL_MS matches no setting")
        .hasMessageContaining(
            "did you mean TIDEWAY_META_BARRIER_INTERVAL_MS, for tideway.meta.barrier-interval-ms?");
    assertThatThrownBy(
            () -> loader().environment(Map.of("TIDEWAY_NOTHING_LIKE_IT_AT_ALL", "5")).load())
        .isInstanceOf(ConfigError.class)
        .hasMessageNotContaining("did you mean");
  }

  @Test
  void unknownKeyInFileFailsNamingFileAndSuggestion() throws IOException {
    Path f = file("tideway.compute.paralelism = 8\n");
    assertThatThrownBy(() -> loader().file(f).load())
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("unknown setting tideway.compute.paralelism in")
        .hasMessageContaining("node.conf")
        .hasMessageContaining("did you mean tideway.compute.parallelism?");
  }

  @Test
  void keysOutsideTidewayPassThrough() throws IOException {
    Path f = file("pekko.loglevel = DEBUG\n");
    assertThat(loader().file(f).load().getString("pekko.loglevel")).isEqualTo("DEBUG");
  }

  @Test
  void missingFileAndUnknownOverrideFail() {
    assertThatThrownBy(() -> loader().file(dir.resolve("absent.conf")).load())
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("absent.conf does not exist");
    assertThatThrownBy(() -> loader().override("tideway.meta.lisen", "x:1", "flag --listen").load())
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("unknown setting tideway.meta.lisen (from flag --listen)")
        .hasMessageContaining("did you mean tideway.meta.listen?");
  }

  @Test
  void twoKeysWithTheSameEnvironmentTwinAreRefused() {
    Config clash = ConfigFactory.parseString("tideway.a.b-c = 1\ntideway.a.b.c = 2");
    assertThatThrownBy(() -> TidewayConfig.loader().reference(clash).load())
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("both map to environment variable TIDEWAY_A_B_C");
  }

  private TidewayConfig withEnv(String name, String value) {
    return loader().environment(Map.of(name, value)).load();
  }

  @Test
  void badDurationNamesKeyValueOriginAndWhatIsAllowed() {
    TidewayConfig c = withEnv("TIDEWAY_META_BARRIER_INTERVAL_MS", "5 fortnights");
    assertThatThrownBy(
            () ->
                c.getDuration(
                    "tideway.meta.barrier-interval-ms", Duration.ofMillis(10), Duration.ofHours(1)))
        .isInstanceOf(ConfigError.class)
        .hasMessage(
            "tideway.meta.barrier-interval-ms = \"5 fortnights\" (from environment variable"
                + " TIDEWAY_META_BARRIER_INTERVAL_MS): expected a duration such as 500ms, 2s, 1m,"
                + " between 10ms and 3600s");
    TidewayConfig tooShort = withEnv("TIDEWAY_META_BARRIER_INTERVAL_MS", "1ms");
    assertThatThrownBy(
            () ->
                tooShort.getDuration(
                    "tideway.meta.barrier-interval-ms", Duration.ofMillis(10), Duration.ofHours(1)))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("\"1ms\"")
        .hasMessageContaining("between 10ms and 3600s");
  }

  @Test
  void badSizeIntEnumBooleanAndHostPort() {
    assertThatThrownBy(
            () ->
                withEnv("TIDEWAY_STORAGE_CACHE_SIZE", "lots")
                    .getBytes("tideway.storage.cache-size", 0, 1L << 40))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("tideway.storage.cache-size = \"lots\"")
        .hasMessageContaining("expected a size such as 512KiB");
    assertThatThrownBy(
            () ->
                withEnv("TIDEWAY_COMPUTE_PARALLELISM", "0")
                    .getInt("tideway.compute.parallelism", 1, 1024))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("expected an integer in [1, 1024]");
    assertThatThrownBy(
            () ->
                withEnv("TIDEWAY_COMPUTE_PARALLELISM", "four")
                    .getInt("tideway.compute.parallelism", 1, 1024))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("\"four\"");
    assertThatThrownBy(
            () ->
                withEnv("TIDEWAY_STORAGE_MODE", "hdfs").getEnum("tideway.storage.mode", Mode.class))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("expected one of [local-fs, s3]");
    assertThat(withEnv("TIDEWAY_STORAGE_MODE", "S3").getEnum("tideway.storage.mode", Mode.class))
        .isEqualTo(Mode.S3);
    assertThatThrownBy(
            () ->
                withEnv("TIDEWAY_COMMON_CHECKS_EXPENSIVE", "maybe")
                    .getBoolean("tideway.common.checks.expensive"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("expected true or false");
    assertThat(
            withEnv("TIDEWAY_COMMON_CHECKS_EXPENSIVE", "true")
                .getBoolean("tideway.common.checks.expensive"))
        .isTrue();
    for (String bad : List.of("meta-0", "meta-0:", "meta-0:99999", "meta-0:http", "::1:5690")) {
      assertThatThrownBy(
              () -> withEnv("TIDEWAY_META_LISTEN", bad).getHostPort("tideway.meta.listen"))
          .as(bad)
          .isInstanceOf(ConfigError.class)
          .hasMessageContaining(
              "tideway.meta.listen = \""
                  + bad
                  + "\" (from environment variable TIDEWAY_META_LISTEN)");
    }
    assertThat(withEnv("TIDEWAY_META_LISTEN", "[::1]:5690").getHostPort("tideway.meta.listen"))
        .isEqualTo(new HostPort("::1", 5690));
  }

  @Test
  void askingForAKeyNoDefaultDefinesFails() {
    assertThatThrownBy(() -> loader().load().getString("tideway.meta.nope"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("no setting tideway.meta.nope");
  }
}

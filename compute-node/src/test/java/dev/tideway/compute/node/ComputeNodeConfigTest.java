package dev.tideway.compute.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.config.TidewayConfig;
import dev.tideway.compute.actor.StateCaches;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The node's settings load through the strict config loader, with environment twins and flags. */
class ComputeNodeConfigTest {
  @Test
  void defaultsMatchTheDesignPorts() {
    ComputeNodeConfig c =
        ComputeNodeConfig.from(TidewayConfig.loader().environment(Map.of()).load().underlying());
    assertThat(c.port()).isEqualTo(5688);
    assertThat(c.zookeeper()).isEqualTo("127.0.0.1:2181");
    assertThat(c.creditWindow()).isEqualTo(32);
    assertThat(c.channelCapacity()).isEqualTo(16);
    assertThat(c.stateCaches()).isEqualTo(StateCaches.DEFAULT);
  }

  @Test
  void stateCacheBoundsComeFromTheEnvironmentAndABadOneNamesItsKey() {
    TidewayConfig cfg =
        TidewayConfig.loader()
            .environment(
                Map.of(
                    "TIDEWAY_COMPUTE_STATE_AGG_CACHE_GROUPS", "1000000",
                    "TIDEWAY_COMPUTE_STATE_JOIN_CACHE_UNITS", "4000000"))
            .load();
    assertThat(ComputeNodeConfig.from(cfg.underlying()).stateCaches())
        .isEqualTo(new StateCaches(1_000_000, 4_000_000));
    TidewayConfig bad =
        TidewayConfig.loader()
            .environment(Map.of("TIDEWAY_COMPUTE_STATE_AGG_CACHE_GROUPS", "0"))
            .load();
    assertThatThrownBy(() -> ComputeNodeConfig.from(bad.underlying()))
        .hasMessageContaining("tideway.compute.state.agg-cache-groups must be > 0, got 0");
  }

  @Test
  void environmentTwinsAndOverridesWin() {
    TidewayConfig cfg =
        TidewayConfig.loader()
            .environment(
                Map.of(
                    "TIDEWAY_COMPUTE_LISTEN", "10.1.2.3:7000",
                    "TIDEWAY_COMPUTE_EXCHANGE_CREDIT_WINDOW", "8"))
            .override("tideway.compute.zookeeper", "zk:2181", "--zookeeper")
            .load();
    ComputeNodeConfig c = ComputeNodeConfig.from(cfg.underlying());
    assertThat(c.host()).isEqualTo("10.1.2.3");
    assertThat(c.port()).isEqualTo(7000);
    assertThat(c.creditWindow()).isEqualTo(8);
    assertThat(c.zookeeper()).isEqualTo("zk:2181");
  }

  @Test
  void aListenAddressWithoutPortIsRejectedNamingTheKey() {
    TidewayConfig cfg =
        TidewayConfig.loader()
            .environment(Map.of())
            .override("tideway.compute.listen", "localhost", "--listen")
            .load();
    assertThatThrownBy(() -> ComputeNodeConfig.from(cfg.underlying()))
        .hasMessageContaining("tideway.compute.listen")
        .hasMessageContaining("localhost");
  }
}

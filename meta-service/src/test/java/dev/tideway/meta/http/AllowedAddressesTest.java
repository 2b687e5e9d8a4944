package dev.tideway.meta.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.config.TidewayConfig;
import dev.tideway.meta.MetaConfig;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AllowedAddressesTest {
  static boolean allows(AllowedAddresses a, String ip) throws Exception {
    return a.test(InetAddress.getByName(ip));
  }

  @Test
  void theDefaultAllowsLoopbackOnly() throws Exception {
    AllowedAddresses a = AllowedAddresses.parse(AllowedAddresses.LOOPBACK);
    assertThat(allows(a, "127.0.0.1")).isTrue();
    assertThat(allows(a, "127.9.9.9")).isTrue();
    assertThat(allows(a, "::1")).isTrue();
    assertThat(allows(a, "10.0.0.1")).isFalse();
    assertThat(allows(a, "192.168.1.10")).isFalse();
    assertThat(allows(a, "fe80::1")).isFalse();
  }

  @Test
  void configuredAddressesAndBlocksAreAcceptedAndOthersRefused() throws Exception {
    AllowedAddresses a = AllowedAddresses.parse(List.of("10.1.0.0/16", "192.168.1.7", "fd00::/8"));
    assertThat(allows(a, "10.1.200.3")).isTrue();
    assertThat(allows(a, "10.2.0.1")).isFalse();
    assertThat(allows(a, "192.168.1.7")).isTrue();
    assertThat(allows(a, "192.168.1.8")).isFalse();
    assertThat(allows(a, "fd12::5")).isTrue();
    assertThat(allows(a, "127.0.0.1")).as("loopback is not in the list").isFalse();
    assertThat(allows(AllowedAddresses.parse(List.of()), "127.0.0.1"))
        .as("an empty list turns the actions off")
        .isFalse();
    assertThat(allows(AllowedAddresses.parse(List.of("0.0.0.0/0")), "8.8.8.8")).isTrue();
  }

  @Test
  void aBadEntryFailsNamingIt() {
    assertThatThrownBy(() -> AllowedAddresses.parse(List.of("10.0.0.0/33")))
        .hasMessageContaining("10.0.0.0/33");
    assertThatThrownBy(() -> AllowedAddresses.parse(List.of("example.com")))
        .hasMessageContaining("'example.com' is not an IP address");
    assertThatThrownBy(() -> AllowedAddresses.parse(List.of("10.0.0.0/x")))
        .hasMessageContaining("prefix length");
  }

  @Test
  void theSettingHasAnEnvironmentTwinAndDefaultsToLoopback() {
    TidewayConfig defaults = TidewayConfig.loader().environment(Map.of()).load();
    assertThat(defaults.getStringList(MetaConfig.CONTROL_ALLOWED_KEY))
        .isEqualTo(AllowedAddresses.LOOPBACK);
    TidewayConfig set =
        TidewayConfig.loader()
            .environment(Map.of("TIDEWAY_META_HTTP_CONTROL_ALLOWED", "[\"10.0.0.0/8\", \"::1\"]"))
            .load();
    assertThat(set.getStringList(MetaConfig.CONTROL_ALLOWED_KEY))
        .containsExactly("10.0.0.0/8", "::1");
  }
}

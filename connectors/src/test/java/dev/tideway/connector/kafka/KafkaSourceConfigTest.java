package dev.tideway.connector.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KafkaSourceConfigTest {
  private static Map<String, String> base() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("connector", "kafka");
    m.put("topic", "t");
    m.put("properties.bootstrap.server", "h:9092");
    return m;
  }

  @Test
  void readsOptionsAndPassesConsumerPropertiesThrough() {
    Map<String, String> m = base();
    m.put("properties.security.protocol", "SASL_SSL");
    m.put("properties.isolation.level", "read_uncommitted");
    m.put("scan.startup.timestamp.millis", "1700000000000");
    m.put("encode", "csv");
    m.put("encode.delimiter", "|");
    m.put("include.partition", "p");
    KafkaSourceConfig c = KafkaSourceConfig.parse(m);
    assertThat(c.startup()).isEqualTo(KafkaSourceConfig.StartupMode.TIMESTAMP);
    assertThat(c.startupTimestampMillis()).isEqualTo(1700000000000L);
    assertThat(c.delimiter()).isEqualTo('|');
    assertThat(c.includeColumns()).containsExactly("p");
    assertThat(c.consumerConfig("x"))
        .containsEntry("security.protocol", "SASL_SSL")
        .containsEntry("isolation.level", "read_uncommitted")
        .containsEntry("bootstrap.servers", "h:9092")
        .containsEntry("enable.auto.commit", "false");
    assertThat(KafkaSourceConfig.parse(base()).startup())
        .isEqualTo(KafkaSourceConfig.StartupMode.EARLIEST);
  }

  @Test
  void badOptionsAreRefusedNamingThem() {
    Map<String, String> m = base();
    m.put("scan.startup.mod", "latest");
    assertThatThrownBy(() -> KafkaSourceConfig.parse(m))
        .hasMessageContaining("unknown option \"scan.startup.mod\"")
        .hasMessageContaining("scan.startup.mode");
    Map<String, String> noTopic = base();
    noTopic.remove("topic");
    assertThatThrownBy(() -> KafkaSourceConfig.parse(noTopic)).hasMessageContaining("\"topic\"");
    Map<String, String> owned = base();
    owned.put("properties.enable.auto.commit", "true");
    assertThatThrownBy(() -> KafkaSourceConfig.parse(owned))
        .hasMessageContaining("set by the source itself");
    Map<String, String> mode = base();
    mode.put("scan.startup.mode", "timestamp");
    assertThatThrownBy(() -> KafkaSourceConfig.parse(mode))
        .hasMessageContaining("scan.startup.timestamp.millis");
    Map<String, String> enc = base();
    enc.put("encode", "avro");
    assertThatThrownBy(() -> KafkaSourceConfig.parse(enc)).hasMessageContaining("ENCODE AVRO");
  }

  @Test
  void sinkOptionsAreCheckedTheSameWay() {
    Map<String, String> m = new LinkedHashMap<>(base());
    m.put("format", "upsert");
    m.put("primary_key", "a, B");
    m.put("properties.compression.type", "lz4");
    KafkaSinkConfig c = KafkaSinkConfig.parse(m);
    assertThat(c.format()).isEqualTo(KafkaSinkConfig.Format.UPSERT);
    assertThat(c.exactlyOnce()).isTrue();
    assertThat(c.primaryKey()).containsExactly("a", "b");
    assertThat(c.producerConfig("x", "tx"))
        .containsEntry("compression.type", "lz4")
        .containsEntry("transactional.id", "tx")
        .containsEntry("acks", "all");
    m.put("sink.delivery", "at_least_once");
    assertThat(KafkaSinkConfig.parse(m).exactlyOnce()).isFalse();
    m.put("sink.delivery", "twice");
    assertThatThrownBy(() -> KafkaSinkConfig.parse(m)).hasMessageContaining("sink.delivery");
    Map<String, String> owned = new LinkedHashMap<>(base());
    owned.put("properties.transactional.id", "mine");
    assertThatThrownBy(() -> KafkaSinkConfig.parse(owned)).hasMessageContaining("set by the sink");
    Map<String, String> unknown = new LinkedHashMap<>(base());
    unknown.put("topics", "x");
    assertThatThrownBy(() -> KafkaSinkConfig.parse(unknown))
        .hasMessageContaining("unknown option \"topics\"");
  }
}

package dev.tideway.connector.kafka;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Questions to a Kafka cluster asked before a job runs (the frontend checks a new source's topic
 * with them, so a wrong address or topic fails {@code CREATE SOURCE} instead of a job). Stateless.
 */
public final class KafkaTopics {
  private KafkaTopics() {}

  /**
   * An admin client's settings: those of the user's client settings an admin client knows (security
   * settings, say), and the servers.
   */
  static Properties adminConfig(java.util.Map<String, String> client, String servers) {
    Properties p = new Properties();
    client.forEach(
        (k, v) -> {
          if (AdminClientConfig.configNames().contains(k)) {
            p.put(k, v);
          }
        });
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
    return p;
  }

  /** The Kafka cluster did not answer (down, a wrong address, refused credentials). */
  public static final class KafkaUnreachableException extends RuntimeException {
    KafkaUnreachableException(String message) {
      super(message);
    }
  }

  /**
   * The number of partitions of the source's topic, asked within {@code timeout}; fails with a
   * message naming the servers or the topic when the cluster cannot be reached ({@link
   * KafkaUnreachableException}) or has no such topic ({@link IllegalArgumentException}).
   */
  public static int partitionCount(KafkaSourceConfig config, Duration timeout) {
    Properties p = adminConfig(config.consumerProperties(), config.bootstrapServers());
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, Long.toString(timeout.toMillis()));
    p.put(AdminClientConfig.CLIENT_ID_CONFIG, "tideway-check");
    try (Admin admin = Admin.create(p)) {
      Map<String, TopicDescription> d =
          admin
              .describeTopics(List.of(config.topic()))
              .allTopicNames()
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return d.get(config.topic()).partitions().size();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking Kafka about the topic", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        throw new IllegalArgumentException(
            "topic \"" + config.topic() + "\" does not exist at " + config.bootstrapServers());
      }
      throw new KafkaUnreachableException(
          "cannot reach Kafka at " + config.bootstrapServers() + ": " + e.getCause().getMessage());
    } catch (TimeoutException e) {
      throw new KafkaUnreachableException(
          "cannot reach Kafka at "
              + config.bootstrapServers()
              + " within "
              + timeout.toMillis()
              + " ms");
    }
  }
}

package dev.tideway.protocol.meta;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.tideway.protocol.ProtocolKryoRegistrar;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The frontend → meta request for {@code ALTER ... SET BACKFILL_RATE_LIMIT} survives the wire: with
 * {@code serialize-messages = on} every message goes through the Kryo serializer (ids from {@link
 * ProtocolKryoRegistrar}), the request's fields and its reply-to ref included, and a rejection
 * comes back with its reason.
 */
class MetaProtocolWireTest {
  private static ActorSystem<MetaProtocol.Request> system;
  private static final List<MetaProtocol.Request> RECEIVED = new CopyOnWriteArrayList<>();

  /** Rejects rate limits of job 13 as WRONG_STATUS, accepts the rest. */
  private static Behavior<MetaProtocol.Request> endpoint() {
    return Behaviors.receiveMessage(
        r -> {
          RECEIVED.add(r);
          boolean reject = r instanceof MetaProtocol.SetBackfillRateLimit s && s.jobId() == 13;
          r.replyTo()
              .tell(
                  new MetaProtocol.Answer(
                      r.requestId(),
                      0,
                      reject ? "WRONG_STATUS" : "",
                      reject ? "job 13 is created" : "",
                      List.of()));
          return Behaviors.same();
        });
  }

  @BeforeAll
  static void start() {
    system =
        ActorSystem.create(
            endpoint(),
            "meta-protocol-wire-test",
            ConfigFactory.parseString(
                    "pekko.actor.serialize-messages = on\n"
                        + "pekko.loglevel = WARNING\n"
                        + "pekko.stdout-loglevel = WARNING")
                .withFallback(ConfigFactory.load()));
  }

  @AfterAll
  static void stop() throws Exception {
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static MetaProtocol.Answer ask(int jobId, long rate) throws Exception {
    return AskPattern.<MetaProtocol.Request, MetaProtocol.Answer>ask(
            system,
            (ActorRef<MetaProtocol.Answer> replyTo) ->
                new MetaProtocol.SetBackfillRateLimit(42, jobId, rate, replyTo),
            Duration.ofSeconds(5),
            system.scheduler())
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  @Test
  void aRateLimitRequestAndItsAnswersCrossTheWire() throws Exception {
    MetaProtocol.Answer ok = ask(7, -1);
    assertThat(ok.requestId()).isEqualTo(42);
    assertThat(ok.error()).isEmpty();
    assertThat(RECEIVED)
        .last()
        .isInstanceOfSatisfying(
            MetaProtocol.SetBackfillRateLimit.class,
            s -> {
              assertThat(s.jobId()).isEqualTo(7);
              assertThat(s.rowsPerSecond()).isEqualTo(-1);
            });
    MetaProtocol.Answer refused = ask(13, 0);
    assertThat(refused.rejectReason()).isEqualTo("WRONG_STATUS");
    assertThat(refused.error()).isEqualTo("job 13 is created");
  }

  /** CREATE SOURCE from a frontend in its own process reaches meta (it had no Kryo id). */
  @Test
  void aCreateSourceSubmissionCrossesTheWire() throws Exception {
    dev.tideway.protocol.meta.DdlCommand.CreateSource cs =
        new dev.tideway.protocol.meta.DdlCommand.CreateSource(
            1,
            "gen",
            "CREATE SOURCE gen (a INT) WITH (connector = 'datagen')",
            List.of(
                new dev.tideway.common.plan.ColumnDesc(
                    0, "a", dev.tideway.common.types.DataType.INT)),
            List.of(),
            java.util.Map.of("connector", "datagen", "datagen.rows.per.second", "10"));
    MetaProtocol.Answer a =
        AskPattern.<MetaProtocol.Request, MetaProtocol.Answer>ask(
                system,
                (ActorRef<MetaProtocol.Answer> replyTo) -> new MetaProtocol.Submit(43, cs, replyTo),
                Duration.ofSeconds(5),
                system.scheduler())
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertThat(a.requestId()).isEqualTo(43);
    assertThat(RECEIVED)
        .last()
        .isInstanceOfSatisfying(
            MetaProtocol.Submit.class, s -> assertThat(s.command()).isEqualTo(cs));
  }
}

package dev.tideway.common.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The serializer as Pekko loads it from common's {@code reference.conf}: bound to {@link
 * TidewayMessage}, round-tripping through {@link SerializationExtension}, and, with {@code
 * serialize-messages = on}, carrying a typed ActorRef that the receiver replies to.
 */
class TidewayPekkoSerializerTest {
  private static ActorSystem<Probes.Ask> system;

  /** Replies to each Ask through the (deserialized) ActorRef it carries. */
  private static Behavior<Probes.Ask> echo() {
    return Behaviors.receiveMessage(
        ask -> {
          ask.replyTo().tell(new Probes.Reply("echo:" + ask.text()));
          return Behaviors.same();
        });
  }

  @BeforeAll
  static void start() {
    BootstrapSetup setup =
        BootstrapSetup.create()
            .withClassloader(
                new Probes.ServiceLoader(TidewayPekkoSerializerTest.class.getClassLoader()))
            .withConfig(
                ConfigFactory.parseString(
                        "pekko.actor.serialize-messages = on\n"
                            + "pekko.loglevel = WARNING\n"
                            + "pekko.stdout-loglevel = WARNING")
                    .withFallback(ConfigFactory.load()));
    system = ActorSystem.create(echo(), "pekko-serializer-test", setup);
  }

  @AfterAll
  static void stop() throws Exception {
    system.terminate();
    system.getWhenTerminated().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  @Test
  void tidewayMessagesAreBoundToTheKryoSerializer() {
    Serialization serialization = SerializationExtension.get(Adapter.toClassic(system));
    Serializer s = serialization.findSerializerFor(new Probes.Ping("p"));
    assertThat(s).isInstanceOf(TidewayPekkoSerializer.class);
    assertThat(s.identifier()).isEqualTo(TidewayPekkoSerializer.IDENTIFIER);
    assertThat(s.includeManifest()).isFalse();
  }

  @Test
  void roundTripThroughTheSerializationExtension() {
    Serialization serialization = SerializationExtension.get(Adapter.toClassic(system));
    Probes.Ping ping = new Probes.Ping("hello");
    byte[] bytes = serialization.serialize(ping).get();
    assertThat(bytes[0]).isEqualTo(TidewayKryo.FORMAT_VERSION);
    Object back = serialization.deserialize(bytes, TidewayPekkoSerializer.IDENTIFIER, "").get();
    assertThat(back).isEqualTo(ping);
  }

  @Test
  void typedActorRefSurvivesSerializationAndTheReplyArrives() throws Exception {
    // serialize-messages = on: every message between these actors goes through the serializer,
    // including the ActorRef inside Ask (ActorRefResolver on both sides).
    int asksBefore = Probes.ASKS.get();
    CompletionStage<Probes.Reply> reply =
        AskPattern.ask(
            system,
            (ActorRef<Probes.Reply> replyTo) -> new Probes.Ask("hi", replyTo),
            Duration.ofSeconds(5),
            system.scheduler());
    assertThat(reply.toCompletableFuture().get(10, TimeUnit.SECONDS))
        .isEqualTo(new Probes.Reply("echo:hi"));
    assertThat(Probes.ASKS.get() - asksBefore)
        .as("built by the sender, then by decoding")
        .isEqualTo(2);
  }

  @Test
  void byteBufferPathMatchesTheArrayPath() {
    TidewayPekkoSerializer s =
        (TidewayPekkoSerializer)
            SerializationExtension.get(Adapter.toClassic(system))
                .serializerByIdentity()
                .apply(TidewayPekkoSerializer.IDENTIFIER);
    Probes.Ping ping = new Probes.Ping("buffer");
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocateDirect(1024);
    s.toBinary(ping, buf);
    buf.flip();
    byte[] viaBuffer = new byte[buf.remaining()];
    buf.duplicate().get(viaBuffer);
    assertThat(viaBuffer).isEqualTo(s.toBinary(ping));
    assertThat(s.fromBinary(buf, "")).isEqualTo(ping);
  }

  @Test
  void refusesToEncodeAnythingButATidewayMessage() {
    TidewayPekkoSerializer s =
        (TidewayPekkoSerializer)
            SerializationExtension.get(Adapter.toClassic(system))
                .serializerByIdentity()
                .apply(TidewayPekkoSerializer.IDENTIFIER);
    assertThatThrownBy(() -> s.toBinary(new Probes.RegisteredNotMessage("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("only encodes TidewayMessage");
    byte[] notAMessage = s.kryo().serialize(new Probes.RegisteredNotMessage("x"));
    assertThatThrownBy(() -> s.fromBinary(notAMessage))
        .isInstanceOf(SerdeException.class)
        .hasMessageContaining("is not a " + TidewayMessage.class.getName());
  }
}

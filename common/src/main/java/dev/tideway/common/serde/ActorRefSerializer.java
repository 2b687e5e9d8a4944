package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.ImmutableSerializer;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * Writes a typed {@link ActorRef} as its serialization-format path ({@code
 * pekko://system@host:port/user/x#uid}) through {@link ActorRefResolver}, and resolves it on read,
 * so the ref works on the receiving node. Needs a registry built with an actor system.
 */
final class ActorRefSerializer extends ImmutableSerializer<ActorRef<?>> {
  private final Supplier<ActorRefResolver> resolver;

  ActorRefSerializer(Supplier<ActorRefResolver> resolver) {
    this.resolver = resolver;
    setAcceptsNull(false);
  }

  @Override
  public void write(Kryo kryo, Output output, ActorRef<?> ref) {
    output.writeString(resolver.get().toSerializationFormat(ref));
  }

  @Override
  public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
    String path = input.readString();
    return resolver.get().resolveActorRef(path);
  }
}

package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import dev.tideway.common.check.Checks;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * Collects the registrations of one {@link KryoRegistrar}: each class with its fixed id and an
 * explicit serializer. The registry validates the collected entries (range, duplicates) before any
 * Kryo instance is built. Not thread-safe; used during registry construction only.
 */
public final class KryoRegistrations {
  /**
   * One registration.
   *
   * @param id the fixed Kryo class id
   * @param type the registered class
   * @param serializer makes the serializer for one Kryo instance; {@code null} = Kryo's default
   *     serializer for the type (used for JDK collection classes whose defaults are configured)
   * @param owner the registrar that added it
   */
  public record Entry(
      int id, Class<?> type, Supplier<? extends Serializer<?>> serializer, KryoRegistrar owner) {}

  private final KryoRegistrar owner;
  private final Supplier<ActorRefResolver> actorRefResolver;
  private final List<Entry> entries = new ArrayList<>();

  KryoRegistrations(KryoRegistrar owner, Supplier<ActorRefResolver> actorRefResolver) {
    this.owner = owner;
    this.actorRefResolver = actorRefResolver;
  }

  /** Registers {@code type} under {@code id}; {@code serializer} makes one per Kryo instance. */
  public <T> KryoRegistrations add(
      int id, Class<T> type, Supplier<? extends Serializer<? super T>> serializer) {
    Checks.checkNotNull(serializer, "serializer for " + type.getName());
    entries.add(new Entry(id, type, serializer, owner));
    return this;
  }

  /** Registers a record under {@code id}, written component by component (sorted by name). */
  public <T extends Record> KryoRegistrations addRecord(int id, Class<T> type) {
    Checks.checkArgument(type.isRecord(), "%s is not a record", type.getName());
    entries.add(new Entry(id, type, () -> new RecordSerializer<>(type), owner));
    return this;
  }

  /** Registers an enum under {@code id}, written as its fixed code, never as its ordinal. */
  public <E extends Enum<E>> KryoRegistrations addEnum(
      int id, Class<E> type, ToIntFunction<E> code, IntFunction<E> fromCode) {
    CodedEnumSerializer.checkCodes(type, code, fromCode);
    entries.add(new Entry(id, type, () -> new CodedEnumSerializer<>(type, code, fromCode), owner));
    return this;
  }

  /** Registers {@code type} under {@code id} with the serializer Kryo picks as its default. */
  KryoRegistrations addWithDefaultSerializer(int id, Class<?> type) {
    entries.add(new Entry(id, type, null, owner));
    return this;
  }

  /**
   * The resolver for typed ActorRefs, for serializers that write them; it throws {@link
   * SerdeException} ({@code NO_ACTOR_SYSTEM}) when the registry was built without an actor system.
   */
  public Supplier<ActorRefResolver> actorRefResolver() {
    return actorRefResolver;
  }

  List<Entry> entries() {
    return List.copyOf(entries);
  }
}

package dev.tideway.common.serde;

import com.esotericsoftware.kryo.serializers.DefaultArraySerializers;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.serializers.OptionalSerializers;
import com.esotericsoftware.kryo.serializers.TimeSerializers;
import dev.tideway.common.chunk.Op;
import dev.tideway.common.chunk.StreamChunk;
import dev.tideway.common.chunk.StreamChunkSerializer;
import dev.tideway.common.row.Row;
import dev.tideway.common.types.DataType;
import dev.tideway.common.types.Field;
import dev.tideway.common.types.Interval;
import dev.tideway.common.types.Schema;
import dev.tideway.common.types.TypeId;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Common's core registrations ({@link KryoIdRange#COMMON_CORE}). Ids are fixed: never reuse or
 * renumber one; append new classes with new ids.
 *
 * <pre>
 * 100 byte[]                         110 ImmutableCollections.List12 (List.of(a[, b]))
 * 101 java.math.BigDecimal           111 ImmutableCollections.ListN  (List.of(), 3+ elements)
 * 102 java.time.LocalDate            112 ImmutableCollections.SubList
 * 103 java.time.LocalTime            113 ImmutableCollections.Set12
 * 104 java.time.LocalDateTime        114 ImmutableCollections.SetN
 * 105 java.time.Instant              115 ImmutableCollections.Map1
 * 106 java.time.Duration             116 ImmutableCollections.MapN
 * 107 java.util.ArrayList            117 int[]
 * 108 java.util.HashMap              118 long[]
 * 109 java.util.Optional             119 java.util.BitSet (its words)
 * 120 types.TypeId (code)            125 row.Row (tagged values)
 * 121 types.DataType                 126 chunk.Op (code)
 * 122 types.Field                    127 chunk.StreamChunk (StreamChunkSerializer)
 * 123 types.Schema                   130 typed ActorRef (pekko ActorRefAdapter, via ActorRefResolver)
 * 124 types.Interval
 * </pre>
 *
 * The JDK immutable collections are registered one by one with fixed ids after {@code
 * ImmutableCollectionsSerializers.addDefaultSerializers} (in {@link TidewayKryo}); Kryo's own
 * {@code registerSerializers} is not used because it takes whatever ids are free next, which would
 * make the ids depend on registration order.
 */
final class CoreKryoRegistrar implements KryoRegistrar {
  static final String ACTOR_REF_ADAPTER =
      "org.apache.pekko.actor.typed.internal.adapter.ActorRefAdapter";

  @Override
  public KryoIdRange range() {
    return KryoIdRange.COMMON_CORE;
  }

  @Override
  public void register(KryoRegistrations r) {
    r.add(100, byte[].class, DefaultArraySerializers.ByteArraySerializer::new);
    r.add(101, BigDecimal.class, DefaultSerializers.BigDecimalSerializer::new);
    r.add(102, LocalDate.class, TimeSerializers.LocalDateSerializer::new);
    r.add(103, LocalTime.class, TimeSerializers.LocalTimeSerializer::new);
    r.add(104, LocalDateTime.class, TimeSerializers.LocalDateTimeSerializer::new);
    r.add(105, Instant.class, TimeSerializers.InstantSerializer::new);
    r.add(106, Duration.class, TimeSerializers.DurationSerializer::new);
    r.addWithDefaultSerializer(107, ArrayList.class);
    r.addWithDefaultSerializer(108, HashMap.class);
    r.add(109, Optional.class, OptionalSerializers.OptionalSerializer::new);
    r.addWithDefaultSerializer(110, List.of(1).getClass());
    r.addWithDefaultSerializer(111, List.of().getClass());
    r.addWithDefaultSerializer(112, List.of(1, 2, 3, 4).subList(0, 2).getClass());
    r.addWithDefaultSerializer(113, Set.of(1).getClass());
    r.addWithDefaultSerializer(114, Set.of().getClass());
    r.addWithDefaultSerializer(115, Map.of(1, 2).getClass());
    r.addWithDefaultSerializer(116, Map.of().getClass());
    r.add(117, int[].class, DefaultArraySerializers.IntArraySerializer::new);
    r.add(118, long[].class, DefaultArraySerializers.LongArraySerializer::new);
    r.add(119, java.util.BitSet.class, BitSetSerializer::new);
    r.addEnum(120, TypeId.class, TypeId::code, c -> TypeId.fromCode((byte) c));
    r.addRecord(121, DataType.class);
    r.addRecord(122, Field.class);
    r.addRecord(123, Schema.class);
    r.addRecord(124, Interval.class);
    r.add(125, Row.class, RowSerializer::new);
    r.addEnum(126, Op.class, Op::code, c -> Op.fromCode((byte) c));
    r.add(127, StreamChunk.class, StreamChunkSerializer::new);
    r.add(130, actorRefAdapterClass(), () -> new ActorRefSerializer(r.actorRefResolver()));
  }

  @SuppressWarnings("unchecked")
  private static Class<ActorRef<?>> actorRefAdapterClass() {
    try {
      return (Class<ActorRef<?>>) Class.forName(ACTOR_REF_ADAPTER);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("pekko-actor-typed is missing " + ACTOR_REF_ADAPTER, e);
    }
  }

  /**
   * {@link java.util.BitSet} as its words (JDK internals are not reflectively accessible on Java
   * 17).
   */
  static final class BitSetSerializer
      extends com.esotericsoftware.kryo.Serializer<java.util.BitSet> {
    @Override
    public void write(
        com.esotericsoftware.kryo.Kryo kryo,
        com.esotericsoftware.kryo.io.Output out,
        java.util.BitSet b) {
      long[] words = b.toLongArray();
      out.writeVarInt(words.length, true);
      out.writeLongs(words, 0, words.length);
    }

    @Override
    public java.util.BitSet read(
        com.esotericsoftware.kryo.Kryo kryo,
        com.esotericsoftware.kryo.io.Input in,
        Class<? extends java.util.BitSet> type) {
      int n = in.readVarInt(true);
      return java.util.BitSet.valueOf(in.readLongs(n));
    }
  }
}

package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.ImmutableSerializer;
import dev.tideway.common.check.Checks;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.ToIntFunction;

/**
 * Writes an enum constant as its fixed wire code (a varint), not its ordinal or name, so constants
 * can be reordered or added without changing the bytes of existing ones. Reading an unknown code
 * fails naming the enum and the code.
 */
final class CodedEnumSerializer<E extends Enum<E>> extends ImmutableSerializer<E> {
  private final Class<E> type;
  private final ToIntFunction<E> code;
  private final IntFunction<E> fromCode;

  CodedEnumSerializer(Class<E> type, ToIntFunction<E> code, IntFunction<E> fromCode) {
    this.type = type;
    this.code = code;
    this.fromCode = fromCode;
    setAcceptsNull(false);
  }

  /** Fails unless every constant has a distinct non-negative code that maps back to it. */
  static <E extends Enum<E>> void checkCodes(
      Class<E> type, ToIntFunction<E> code, IntFunction<E> fromCode) {
    Set<Integer> seen = new HashSet<>();
    for (E e : type.getEnumConstants()) {
      int c = code.applyAsInt(e);
      Checks.checkArgument(c >= 0, "%s.%s has negative code %s", type.getSimpleName(), e, c);
      Checks.checkArgument(seen.add(c), "%s: code %s used twice", type.getSimpleName(), c);
      Checks.checkArgument(
          fromCode.apply(c) == e,
          "%s: code %s maps back to %s, not %s",
          type.getSimpleName(),
          c,
          fromCode.apply(c),
          e);
    }
  }

  @Override
  public void write(Kryo kryo, Output output, E value) {
    output.writeVarInt(code.applyAsInt(value), true);
  }

  @Override
  public E read(Kryo kryo, Input input, Class<? extends E> ignored) {
    int c = input.readVarInt(true);
    try {
      return fromCode.apply(c);
    } catch (IllegalArgumentException e) {
      throw new KryoException("unknown " + type.getSimpleName() + " code " + c, e);
    }
  }
}

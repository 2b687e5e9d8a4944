package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;

/**
 * Kryo's class resolver restricted to registered ids. Why not the default: with registration
 * required, Kryo's {@link DefaultClassResolver} still accepts a class written by name on the read
 * side, and loads that class with {@code Class.forName} before it notices the class is not
 * registered. This resolver refuses a class name before reading it, and answers an unknown id with
 * an error naming the id. In both cases nothing is loaded or instantiated.
 *
 * <p>One per Kryo instance, so confined like its Kryo.
 */
final class StrictClassResolver extends DefaultClassResolver {
  @Override
  public Registration readClass(Input input) {
    int encoded = input.readVarInt(true);
    if (encoded == Kryo.NULL) {
      return null;
    }
    if (encoded == NAME + 2) {
      throw new SerdeException(
          SerdeException.Reason.CLASS_NAME_ON_WIRE,
          "the input names a class instead of giving a registered Kryo id; refused without"
              + " loading it (only registered classes are accepted)");
    }
    int id = encoded - 2;
    Registration registration = getRegistration(id);
    if (registration == null) {
      throw new SerdeException(
          SerdeException.Reason.UNKNOWN_CLASS_ID,
          "unknown Kryo class id "
              + id
              + ": no class is registered under it on this node (nothing was instantiated);"
              + " is the sender running a different version?");
    }
    return registration;
  }

  @Override
  protected Registration readName(Input input) {
    throw new SerdeException(
        SerdeException.Reason.CLASS_NAME_ON_WIRE, "class names are never read from the wire");
  }

  @Override
  protected void writeName(Output output, Class type, Registration registration) {
    throw new SerdeException(
        SerdeException.Reason.UNREGISTERED_CLASS,
        "class " + type.getName() + " has no Kryo id; register it in its module's KryoRegistrar");
  }
}

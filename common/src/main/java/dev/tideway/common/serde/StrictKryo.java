package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Registration;

/**
 * A Kryo instance with registration required, references off and the {@link StrictClassResolver};
 * it reports an unregistered class on write as a {@link SerdeException} that names the class and
 * says where to register it. Not thread-safe (no Kryo is); {@link TidewayKryo} pools them.
 */
final class StrictKryo extends Kryo {
  StrictKryo() {
    super(new StrictClassResolver(), null);
    setRegistrationRequired(true);
    setReferences(false);
    setAutoReset(true);
  }

  @Override
  public Registration getRegistration(Class type) {
    try {
      return super.getRegistration(type);
    } catch (IllegalArgumentException e) {
      throw new SerdeException(
          SerdeException.Reason.UNREGISTERED_CLASS,
          "class "
              + type.getName()
              + " is not registered with Kryo; register it with a fixed id in its module's"
              + " KryoRegistrar (see KryoIdRange)",
          e);
    }
  }
}

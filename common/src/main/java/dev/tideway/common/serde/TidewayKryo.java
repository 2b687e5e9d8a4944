package dev.tideway.common.serde;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.io.ByteBufferInput;
import com.esotericsoftware.kryo.io.ByteBufferOutput;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.ImmutableCollectionsSerializers;
import com.esotericsoftware.kryo.util.Pool;
import dev.tideway.common.check.Checks;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * The one Kryo registry of Tideway: every class that crosses a node boundary, with a fixed id, and
 * a thread-safe pool of configured Kryo instances to encode and decode with.
 *
 * <p>Overview: {@link #builder()} collects the registrations of common's built-in registrars
 * ({@link CoreKryoRegistrar} ids 100..199, {@link PlanKryoRegistrar} 200..299; the tables are in
 * their javadoc) and of every {@link KryoRegistrar} found by {@link ServiceLoader}, and validates
 * them once: a range claimed twice, an id outside its registrar's range, an id or a class
 * registered twice all fail {@link Builder#build()} naming both parties. The id ranges are in
 * {@link KryoIdRange}. Each pooled Kryo is then configured identically:
 *
 * <ul>
 *   <li>registration required, with a {@link StrictClassResolver}: an unknown id or a class name in
 *       the input fails before anything is loaded or instantiated;
 *   <li>references off (messages are trees; shared or cyclic graphs are not supported);
 *   <li>records through {@code RecordSerializer} (canonical constructor, so decoding validates),
 *       enums by fixed codes, JDK immutable collections by Kryo's immutable serializers.
 * </ul>
 *
 * <p>Wire format of a message: one format-version byte ({@link #FORMAT_VERSION}), then Kryo's
 * {@code writeClassAndObject}: the varint class id + 2, then the object. Decoding checks the
 * version, reads the class id, checks the class is one the caller accepts <em>before</em> reading
 * the object, reads it and fails on trailing bytes.
 *
 * <p>Thread safety: instances are immutable and safe to share; each call borrows a Kryo (with its
 * own output buffer) from the pool. A Kryo whose call failed is dropped, not returned.
 */
public final class TidewayKryo {
  /**
   * The format version written first in every message. Bump it (and keep reading the old one for a
   * release) when a registered class's layout changes incompatibly.
   */
  public static final byte FORMAT_VERSION = 3;

  /** The oldest format version this build still reads. */
  public static final byte OLDEST_READABLE_VERSION = 1;

  /**
   * Key in {@code Kryo.getContext()} under which {@link #read} leaves the version of the message
   * being read, for serializers whose layout changed between versions.
   */
  public static final String READ_VERSION_KEY = "tideway.format.version";

  /**
   * The format version of the message being decoded (serializers of changed layouts ask); the
   * current version when encoding.
   */
  public static int readVersion(com.esotericsoftware.kryo.Kryo kryo) {
    Object v = kryo.getContext().get(READ_VERSION_KEY);
    return v == null ? FORMAT_VERSION : (Integer) v;
  }

  /** Initial size of a pooled output buffer: one 1024-row x 4-column chunk fits without growth. */
  static final int OUTPUT_INITIAL_BYTES = 64 * 1024;

  /** A pooled output that grew beyond this is replaced rather than kept. */
  static final int OUTPUT_RETAINED_MAX_BYTES = 1024 * 1024;

  private final List<KryoRegistrations.Entry> entries;
  private final Pool<Slot> pool;

  /** A Kryo with its reusable buffers; used by one thread between obtain and free. */
  private static final class Slot {
    final Kryo kryo;
    Output output = new Output(OUTPUT_INITIAL_BYTES, -1);
    final Input input = new Input();
    final ByteBufferOutput bufferOutput = new ByteBufferOutput();
    final ByteBufferInput bufferInput = new ByteBufferInput();

    Slot(Kryo kryo) {
      this.kryo = kryo;
    }
  }

  private TidewayKryo(List<KryoRegistrations.Entry> entries, int maxPooled) {
    this.entries = entries;
    this.pool =
        new Pool<>(true, false, maxPooled) {
          @Override
          protected Slot create() {
            return new Slot(newKryo());
          }
        };
    pool.free(pool.obtain()); // build one Kryo now so a broken serializer fails at startup
  }

  /** A registry with common's and every service-loaded registrar, without an actor system. */
  public static TidewayKryo create() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Every registration, sorted by id. */
  public List<KryoRegistrations.Entry> registrations() {
    return entries;
  }

  /** A new, fully configured Kryo (not pooled); for tools and tests. Not thread-safe. */
  public Kryo newKryo() {
    Kryo kryo = new StrictKryo();
    ImmutableCollectionsSerializers.addDefaultSerializers(kryo);
    for (KryoRegistrations.Entry e : entries) {
      if (e.serializer() == null) {
        kryo.register(e.type(), e.id());
      } else {
        kryo.register(e.type(), e.serializer().get(), e.id());
      }
    }
    return kryo;
  }

  /** Encodes {@code message}: the format version, then its class id and fields. */
  public byte[] serialize(Object message) {
    Checks.checkNotNull(message, "message");
    Slot slot = pool.obtain();
    try {
      Output out = slot.output;
      out.reset();
      out.writeByte(FORMAT_VERSION);
      slot.kryo.writeClassAndObject(out, message);
      byte[] bytes = out.toBytes();
      if (out.getBuffer().length > OUTPUT_RETAINED_MAX_BYTES) {
        slot.output = new Output(OUTPUT_INITIAL_BYTES, -1);
      }
      pool.free(slot);
      return bytes;
    } catch (RuntimeException e) {
      throw classify(e, SerdeException.Reason.ENCODE_FAILED, message.getClass().getName());
    }
  }

  /** Decodes any registered object. */
  public Object deserialize(byte[] bytes) {
    return deserialize(bytes, Object.class);
  }

  /**
   * Decodes a message whose top-level class must be {@code expected} or a subtype; any other class,
   * even a registered one, is refused before it is instantiated.
   */
  public <T> T deserialize(byte[] bytes, Class<T> expected) {
    Checks.checkNotNull(bytes, "bytes");
    Slot slot = pool.obtain();
    Input in = slot.input;
    in.setBuffer(bytes);
    T value = read(slot, in, expected);
    in.setBuffer(new byte[0]); // do not keep the message reachable from the pool
    pool.free(slot);
    return value;
  }

  /**
   * Encodes {@code message} into {@code buf} from its position, with the same bytes as {@link
   * #serialize(Object)}; the position advances past them. For Pekko's {@code ByteBufferSerializer}
   * path, which writes straight into Artery's pooled buffers.
   *
   * @throws SerdeException {@code TOO_LARGE} when the message does not fit in {@code buf}
   */
  public void serialize(Object message, ByteBuffer buf) {
    Checks.checkNotNull(message, "message");
    Slot slot = pool.obtain();
    ByteOrder order = buf.order();
    try {
      ByteBufferOutput out = slot.bufferOutput;
      buf.order(ByteOrder.LITTLE_ENDIAN); // the byte[] path's order
      out.setBuffer(buf, buf.capacity());
      out.writeByte(FORMAT_VERSION);
      slot.kryo.writeClassAndObject(out, message);
      out.flush();
      buf.position(out.position());
      out.setBuffer(EMPTY_BUFFER, 0);
      pool.free(slot);
    } catch (com.esotericsoftware.kryo.io.KryoBufferOverflowException e) {
      throw new SerdeException(
          SerdeException.Reason.TOO_LARGE,
          message.getClass().getName()
              + " does not fit in a frame of "
              + buf.capacity()
              + " bytes ("
              + e.getMessage()
              + ")",
          e);
    } catch (RuntimeException e) {
      throw classify(e, SerdeException.Reason.ENCODE_FAILED, message.getClass().getName());
    } finally {
      buf.order(order);
    }
  }

  /** Decodes from {@code buf}'s position to its limit, like {@link #deserialize(byte[], Class)}. */
  public <T> T deserialize(ByteBuffer buf, Class<T> expected) {
    Checks.checkNotNull(buf, "buffer");
    Slot slot = pool.obtain();
    ByteOrder order = buf.order();
    try {
      ByteBufferInput in = slot.bufferInput;
      buf.order(ByteOrder.LITTLE_ENDIAN);
      in.setBuffer(buf);
      T value = read(slot, in, expected);
      buf.position(in.position());
      in.setBuffer(EMPTY_BUFFER);
      pool.free(slot);
      return value;
    } finally {
      buf.order(order);
    }
  }

  private static final ByteBuffer EMPTY_BUFFER = ByteBuffer.allocate(0);

  /**
   * Reads one message from {@code in} (version byte, class id, object) and checks nothing trails
   * it. On failure the slot is dropped, not returned to the pool.
   */
  private static <T> T read(Slot slot, Input in, Class<T> expected) {
    String what = "message";
    try {
      if (in.limit() - in.position() <= 0) {
        throw new SerdeException(SerdeException.Reason.CORRUPT, "empty message");
      }
      byte version = in.readByte();
      if (version < OLDEST_READABLE_VERSION || version > FORMAT_VERSION) {
        throw new SerdeException(
            SerdeException.Reason.UNSUPPORTED_FORMAT_VERSION,
            "message format version "
                + version
                + ", this node reads versions "
                + OLDEST_READABLE_VERSION
                + ".."
                + FORMAT_VERSION);
      }
      slot.kryo.getContext().put(READ_VERSION_KEY, (int) version);
      Registration reg = slot.kryo.readClass(in);
      if (reg == null) {
        throw new SerdeException(SerdeException.Reason.CORRUPT, "message is a null reference");
      }
      what = "class id " + reg.getId() + " (" + reg.getType().getName() + ")";
      if (!expected.isAssignableFrom(reg.getType())) {
        throw new SerdeException(
            SerdeException.Reason.UNEXPECTED_CLASS,
            what + " is registered but is not a " + expected.getName() + "; refused unread");
      }
      Object value = slot.kryo.readObject(in, reg.getType(), reg.getSerializer());
      if (in.position() != in.limit()) {
        throw new SerdeException(
            SerdeException.Reason.CORRUPT,
            (in.limit() - in.position()) + " trailing bytes after " + what);
      }
      return expected.cast(value);
    } catch (RuntimeException e) {
      throw classify(e, SerdeException.Reason.CORRUPT, what);
    }
  }

  /**
   * The {@link SerdeException} for a failure: one found in the cause chain keeps its reason (Kryo
   * wraps exceptions thrown by nested serializers) with Kryo's field trace appended; anything else
   * gets {@code fallback}.
   */
  private static SerdeException classify(
      RuntimeException e, SerdeException.Reason fallback, String what) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SerdeException s) {
        if (t == e) {
          return s;
        }
        return new SerdeException(s.reason(), s.getMessage() + " [" + trace(e) + "]", e);
      }
    }
    String verb = fallback == SerdeException.Reason.CORRUPT ? "decode" : "encode";
    return new SerdeException(fallback, "cannot " + verb + " " + what + ": " + trace(e), e);
  }

  /** The root cause's message, then Kryo's field trace when there is one, on one line. */
  private static String trace(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    if (root != e && e instanceof KryoException && e.getMessage() != null) {
      int at = e.getMessage().indexOf("Serialization trace:");
      if (at >= 0) {
        m = m + " (" + e.getMessage().substring(at) + ")";
      }
    }
    return m.replace('\n', ' ');
  }

  /** Collects registrars and an optional actor system; {@link #build()} validates. */
  public static final class Builder {
    private final List<KryoRegistrar> extra = new ArrayList<>();
    private boolean serviceLoader = true;
    private ClassLoader classLoader = TidewayKryo.class.getClassLoader();
    private Supplier<ActorRefResolver> resolver = null;
    private int maxPooled = 64;

    private Builder() {}

    /** Adds a registrar explicitly (tests; or a module that is not on the service path). */
    public Builder registrar(KryoRegistrar registrar) {
      extra.add(Checks.checkNotNull(registrar, "registrar"));
      return this;
    }

    /** Whether to add registrars found by {@link ServiceLoader} (default true). */
    public Builder serviceLoader(boolean enabled) {
      this.serviceLoader = enabled;
      return this;
    }

    public Builder classLoader(ClassLoader loader) {
      this.classLoader = Checks.checkNotNull(loader, "class loader");
      return this;
    }

    /**
     * Resolves typed ActorRefs through {@code resolver} (called lazily, on the first ref; Pekko
     * serializers are built while the actor system starts, before its extensions are ready).
     */
    public Builder actorRefResolver(Supplier<ActorRefResolver> resolver) {
      this.resolver = Checks.checkNotNull(resolver, "actor ref resolver");
      return this;
    }

    /** Most Kryo instances kept idle in the pool (default 64). */
    public Builder maxPooled(int max) {
      Checks.checkArgument(max > 0, "max pooled must be > 0, got %s", max);
      this.maxPooled = max;
      return this;
    }

    public TidewayKryo build() {
      List<KryoRegistrar> registrars = new ArrayList<>();
      registrars.add(new CoreKryoRegistrar());
      registrars.add(new PlanKryoRegistrar());
      if (serviceLoader) {
        ServiceLoader.load(KryoRegistrar.class, classLoader).forEach(registrars::add);
      }
      registrars.addAll(extra);
      Supplier<ActorRefResolver> refs = resolver != null ? memoize(resolver) : Builder::noSystem;
      return new TidewayKryo(validate(registrars, refs), maxPooled);
    }

    private static ActorRefResolver noSystem() {
      throw new SerdeException(
          SerdeException.Reason.NO_ACTOR_SYSTEM,
          "a typed ActorRef needs a Kryo registry built with an actor system"
              + " (TidewayKryo.builder().actorRefResolver(...))");
    }

    private static <T> Supplier<T> memoize(Supplier<T> s) {
      return new Supplier<>() {
        private volatile T value;

        @Override
        public T get() {
          T v = value;
          if (v == null) {
            v = s.get();
            value = v;
          }
          return v;
        }
      };
    }
  }

  /** Checks ranges, ids and classes; returns all entries sorted by id. */
  static List<KryoRegistrations.Entry> validate(
      List<KryoRegistrar> registrars, Supplier<ActorRefResolver> refs) {
    Map<KryoIdRange, KryoRegistrar> byRange = new EnumMap<>(KryoIdRange.class);
    Map<Integer, KryoRegistrations.Entry> byId = new HashMap<>();
    Map<Class<?>, KryoRegistrations.Entry> byClass = new HashMap<>();
    for (KryoRegistrar r : registrars) {
      KryoRegistrar other = byRange.putIfAbsent(r.range(), r);
      if (other != null) {
        throw new IllegalStateException(
            "Kryo id range " + r.range() + " claimed by both " + name(other) + " and " + name(r));
      }
      KryoRegistrations regs = new KryoRegistrations(r, refs);
      r.register(regs);
      for (KryoRegistrations.Entry e : regs.entries()) {
        if (!r.range().contains(e.id())) {
          throw new IllegalStateException(
              name(r)
                  + " registers "
                  + e.type().getName()
                  + " with Kryo id "
                  + e.id()
                  + " outside its range "
                  + r.range());
        }
        KryoRegistrations.Entry dupId = byId.putIfAbsent(e.id(), e);
        if (dupId != null) {
          throw new IllegalStateException(
              "Kryo id "
                  + e.id()
                  + " registered twice: "
                  + dupId.type().getName()
                  + " by "
                  + name(dupId.owner())
                  + " and "
                  + e.type().getName()
                  + " by "
                  + name(r));
        }
        KryoRegistrations.Entry dupClass = byClass.putIfAbsent(e.type(), e);
        if (dupClass != null) {
          throw new IllegalStateException(
              e.type().getName()
                  + " registered twice: id "
                  + dupClass.id()
                  + " by "
                  + name(dupClass.owner())
                  + " and id "
                  + e.id()
                  + " by "
                  + name(r));
        }
      }
    }
    List<KryoRegistrations.Entry> all = new ArrayList<>(byId.values());
    all.sort(Comparator.comparingInt(KryoRegistrations.Entry::id));
    return List.copyOf(all);
  }

  private static String name(KryoRegistrar r) {
    return r.getClass().getName();
  }
}

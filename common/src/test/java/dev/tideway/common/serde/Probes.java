package dev.tideway.common.serde;

import java.util.concurrent.atomic.AtomicInteger;

/** Test classes that count their constructions, to prove rejected input instantiates nothing. */
public final class Probes {
  private Probes() {}

  static final AtomicInteger CONSTRUCTED = new AtomicInteger();

  /** Registered in the TESTS range but not a TidewayMessage. */
  record RegisteredNotMessage(String text) {
    RegisteredNotMessage {
      CONSTRUCTED.incrementAndGet();
    }
  }

  /** A TidewayMessage that is registered (id 901). */
  record Ping(String text) implements TidewayMessage {
    Ping {
      CONSTRUCTED.incrementAndGet();
    }
  }

  /** A TidewayMessage that is never registered. */
  record Unregistered(String text) implements TidewayMessage {
    Unregistered {
      CONSTRUCTED.incrementAndGet();
    }
  }

  /** A request carrying a typed ActorRef to reply to. */
  record Ask(String text, org.apache.pekko.actor.typed.ActorRef<Reply> replyTo)
      implements TidewayMessage {
    Ask {
      ASKS.incrementAndGet();
    }
  }

  /** Constructions of {@link Ask}: the sender's, plus one per decoding. */
  static final AtomicInteger ASKS = new AtomicInteger();

  /** The answer to an {@link Ask}. */
  record Reply(String text) implements TidewayMessage {}

  /**
   * Registers the probes in the TESTS range: 900 RegisteredNotMessage, 901 Ping, 902 Ask, 903
   * Reply.
   */
  public static final class Registrar implements KryoRegistrar {
    public Registrar() {}

    @Override
    public KryoIdRange range() {
      return KryoIdRange.TESTS;
    }

    @Override
    public void register(KryoRegistrations r) {
      r.addRecord(900, RegisteredNotMessage.class);
      r.addRecord(901, Ping.class);
      r.addRecord(902, Ask.class);
      r.addRecord(903, Reply.class);
    }
  }

  /**
   * A class loader that lists {@link Registrar} as a service, so an actor system built with it
   * finds the probes without a services file in common's test-jar.
   */
  static final class ServiceLoader extends ClassLoader {
    private static final String SERVICE = "META-INF/services/" + KryoRegistrar.class.getName();

    ServiceLoader(ClassLoader parent) {
      super(parent);
    }

    @Override
    public java.util.Enumeration<java.net.URL> getResources(String name)
        throws java.io.IOException {
      if (name.equals(SERVICE)) {
        return java.util.Collections.enumeration(
            java.util.List.of(getParent().getResource("serde/probe-registrars.txt")));
      }
      return super.getResources(name);
    }
  }

  /** A class loader that records every class it is asked to load. */
  static final class RecordingLoader extends ClassLoader {
    final java.util.List<String> requested = new java.util.concurrent.CopyOnWriteArrayList<>();

    RecordingLoader(ClassLoader parent) {
      super(parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      requested.add(name);
      return super.loadClass(name, resolve);
    }
  }
}

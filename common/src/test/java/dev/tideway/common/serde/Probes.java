package dev.tideway.common.serde;

import java.util.concurrent.atomic.AtomicInteger;

/** Test classes that count their constructions, to prove rejected input instantiates nothing. */
final class Probes {
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

  /** Registers the probes in the TESTS range: 900 RegisteredNotMessage, 901 Ping. */
  static final class Registrar implements KryoRegistrar {
    @Override
    public KryoIdRange range() {
      return KryoIdRange.TESTS;
    }

    @Override
    public void register(KryoRegistrations r) {
      r.addRecord(900, RegisteredNotMessage.class);
      r.addRecord(901, Ping.class);
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

package dev.tideway.compute.actor;

import dev.tideway.common.check.Checks;
import dev.tideway.common.plan.StreamNode;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The registry of {@link ExecutorBuilder}s by plan body class. Immutable once built; share it
 * between threads freely.
 */
public final class ExecutorBuilders {
  private final Map<Class<? extends StreamNode>, ExecutorBuilder> byKind;

  private ExecutorBuilders(Map<Class<? extends StreamNode>, ExecutorBuilder> byKind) {
    this.byKind = Map.copyOf(byKind);
  }

  /** The builders listed in {@code META-INF/services} on the class path, plus {@code extra}. */
  public static ExecutorBuilders discover(ExecutorBuilder... extra) {
    Map<Class<? extends StreamNode>, ExecutorBuilder> m = new HashMap<>();
    for (ExecutorBuilder b : ServiceLoader.load(ExecutorBuilder.class)) {
      add(m, b);
    }
    for (ExecutorBuilder b : extra) {
      add(m, b);
    }
    return new ExecutorBuilders(m);
  }

  /** Exactly {@code builders} (tests). */
  public static ExecutorBuilders of(ExecutorBuilder... builders) {
    Map<Class<? extends StreamNode>, ExecutorBuilder> m = new HashMap<>();
    for (ExecutorBuilder b : builders) {
      add(m, b);
    }
    return new ExecutorBuilders(m);
  }

  private static void add(Map<Class<? extends StreamNode>, ExecutorBuilder> m, ExecutorBuilder b) {
    for (Class<? extends StreamNode> kind : b.nodeKinds()) {
      ExecutorBuilder old = m.putIfAbsent(kind, b);
      Checks.checkArgument(
          old == null,
          "two executor builders for %s: %s and %s",
          kind.getSimpleName(),
          old == null ? "" : old.getClass().getName(),
          b.getClass().getName());
    }
  }

  /** The builder for {@code kind}; fails naming the kind when none is registered. */
  public ExecutorBuilder forKind(Class<? extends StreamNode> kind) {
    ExecutorBuilder b = byKind.get(kind);
    Checks.checkArgument(b != null, "no executor builder for plan node %s", kind.getSimpleName());
    return b;
  }
}

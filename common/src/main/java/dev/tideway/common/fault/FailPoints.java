package dev.tideway.common.fault;

import dev.tideway.common.check.Checks;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Named fault-injection points. Production code calls {@link #hit(String)} at each step where a
 * crash matters ({@code "sst.upload"}, {@code "version.commit.before-pointer"}); it is a single
 * volatile read unless a test enabled some point.
 *
 * <p>A test enables a name with an {@link Action}: throw {@link InjectedFault} always, once, or
 * after N hits, or block until released (to force an interleaving). Names are registered in {@link
 * #KNOWN} by the module that declares them, so a typo in a test fails instead of silently never
 * firing. Process-wide state: tests that enable points must {@link #reset()} in teardown.
 */
public final class FailPoints {
  /** Every declared fail point name; modules add theirs with {@link #declare}. */
  private static final Set<String> KNOWN = ConcurrentHashMap.newKeySet();

  private static final Map<String, Action> ENABLED = new ConcurrentHashMap<>();
  private static final Map<String, AtomicLong> HITS = new ConcurrentHashMap<>();

  /** Fast path: false unless some point is enabled. */
  private static volatile boolean anyEnabled;

  private FailPoints() {}

  /** What an enabled point does when hit. */
  public sealed interface Action {}

  /** Throw every time. */
  public record Fail() implements Action {}

  /** Throw on the {@code n}-th hit (1-based) and never again. */
  public record FailOnHit(long n) implements Action {}

  /**
   * Throw every time the point is hit with this scope ({@link #hit(String, long)}: a job id, say);
   * hits with another scope, or without one, pass.
   */
  public record FailScope(long scope) implements Action {}

  /** Block the hitting thread until {@link #release()}; {@link #reached()} tells a hit happened. */
  public static final class Pause implements Action {
    private final CountDownLatch reached = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    public CountDownLatch reached() {
      return reached;
    }

    public void release() {
      released.countDown();
    }
  }

  /** Declares fail point names; returns the first for use as a constant. */
  public static String declare(String name) {
    Checks.checkArgument(name != null && !name.isBlank(), "fail point name must not be blank");
    KNOWN.add(name);
    return name;
  }

  /** Enables a declared point. */
  public static void enable(String name, Action action) {
    Checks.checkArgument(
        KNOWN.contains(name),
        "unknown fail point '%s'; declared: %s",
        name,
        KNOWN.stream().sorted().toList());
    ENABLED.put(name, action);
    HITS.computeIfAbsent(name, k -> new AtomicLong()).set(0);
    anyEnabled = true;
  }

  public static void disable(String name) {
    ENABLED.remove(name);
    anyEnabled = !ENABLED.isEmpty();
  }

  /** Disables every point. */
  public static void reset() {
    ENABLED.clear();
    HITS.clear();
    anyEnabled = false;
  }

  /** How often an enabled point was hit since it was enabled. */
  public static long hits(String name) {
    AtomicLong n = HITS.get(name);
    return n == null ? 0 : n.get();
  }

  /**
   * Called by production code at the named step on behalf of {@code scope} (a job id, say): a
   * {@link FailScope} action throws only for its own scope; any other action acts as in {@link
   * #hit(String)}.
   */
  public static void hit(String name, long scope) {
    if (!anyEnabled) {
      return;
    }
    if (ENABLED.get(name) instanceof FailScope f) {
      if (f.scope() == scope) {
        HITS.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
        throw new InjectedFault(name + " (scope " + scope + ")");
      }
      return;
    }
    hit(name);
  }

  /** Called by production code at the named step; throws {@link InjectedFault} when told to. */
  public static void hit(String name) {
    if (!anyEnabled) {
      return;
    }
    Action action = ENABLED.get(name);
    if (action == null) {
      return;
    }
    long n = HITS.computeIfAbsent(name, k -> new AtomicLong()).incrementAndGet();
    if (action instanceof Fail) {
      throw new InjectedFault(name);
    } else if (action instanceof FailOnHit once) {
      if (n == once.n()) {
        throw new InjectedFault(name);
      }
    } else if (action instanceof Pause pause) {
      pause.reached.countDown();
      try {
        pause.released.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InjectedFault(name);
      }
    }
  }
}

package dev.tideway.common.fault;

import com.typesafe.config.Config;
import dev.tideway.common.exec.Threads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Switches {@link FailPoints} of a running process on and off from outside, for fault-injection
 * runs of a whole cluster ({@code tideway chaos}): when {@code tideway.common.faults.control-file}
 * names a file, a daemon thread reads it every {@link #PERIOD_MS} ms, and each line names a
 * declared fail point to fail every hit ({@link FailPoints.Fail}); a point whose line went away (or
 * the file) is switched off again. Off by default: nothing is watched unless the key (or its
 * environment twin {@code TIDEWAY_COMMON_FAULTS_CONTROL_FILE}) is set.
 */
public final class FaultControl {
  private static final Logger LOG = LoggerFactory.getLogger(FaultControl.class);

  /** The configuration key naming the control file ("" = off). */
  public static final String KEY = "tideway.common.faults.control-file";

  static final long PERIOD_MS = 200;

  private final Path file;
  private final Set<String> on = new HashSet<>();

  private FaultControl(Path file) {
    this.file = file;
  }

  /** Watches the control file {@code config} names, if any; returns whether it does. */
  public static boolean watch(Config config) {
    String f = config.hasPath(KEY) ? config.getString(KEY) : "";
    if (f.isBlank()) {
      return false;
    }
    FaultControl c = new FaultControl(Path.of(f));
    ScheduledExecutorService timer = Threads.scheduler("fault-control");
    timer.scheduleWithFixedDelay(c::poll, 0, PERIOD_MS, TimeUnit.MILLISECONDS);
    LOG.warn("fault injection is on: fail points named in {} fail every hit", f);
    return true;
  }

  /** One round: makes the enabled points those the file lists now. */
  void poll() {
    Set<String> want = new HashSet<>();
    try {
      if (Files.exists(file)) {
        for (String line : Files.readAllLines(file)) {
          if (!line.isBlank()) {
            want.add(line.strip());
          }
        }
      }
    } catch (IOException e) {
      return; // being rewritten: next round
    }
    for (String name : Set.copyOf(on)) {
      if (!want.contains(name)) {
        FailPoints.disable(name);
        on.remove(name);
        LOG.warn("fail point {} off", name);
      }
    }
    for (String name : want) {
      if (!on.contains(name)) {
        try {
          FailPoints.enable(name, new FailPoints.Fail());
          on.add(name);
          LOG.warn("fail point {} on", name);
        } catch (IllegalArgumentException e) {
          LOG.warn("fault control file names an unknown fail point: {}", e.getMessage());
          on.add(name); // do not repeat the warning every round
        }
      }
    }
  }
}

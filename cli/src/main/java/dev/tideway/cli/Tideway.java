package dev.tideway.cli;

import dev.tideway.common.config.TidewayConfig;
import dev.tideway.common.fault.FaultControl;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one {@code tideway} launcher: every role of a Tideway cluster is a subcommand. */
@Command(
    name = "tideway",
    mixinStandardHelpOptions = true,
    versionProvider = VersionCommand.Provider.class,
    description = "Tideway: SQL materialized views kept up to date incrementally.",
    subcommands = {
      VersionCommand.class,
      BenchCommand.class,
      ChaosCommand.class,
      FuzzCommand.class,
      PlaygroundCommand.class,
      RoleCommands.ZooKeeperCommand.class,
      RoleCommands.MetaCommand.class,
      RoleCommands.ComputeCommand.class,
      RoleCommands.FrontendCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Tideway implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    // before any HTTP server exists: answers go out without waiting for a delayed ACK
    if (System.getProperty("sun.net.httpserver.nodelay") == null) {
      System.setProperty("sun.net.httpserver.nodelay", "true");
    }
    // a fault-injection run switches fail points on from outside (off unless configured); a bad
    // configuration is reported by the command that reads it, with its own message
    try {
      FaultControl.watch(TidewayConfig.ofProcess().underlying());
    } catch (RuntimeException e) {
      // reported later
    }
    System.exit(commandLine().execute(args));
  }

  /** The configured command line, shared by {@link #main} and tests. */
  public static CommandLine commandLine() {
    return new CommandLine(new Tideway());
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }
}

package dev.tideway.cli;

import dev.tideway.common.BuildInfo;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code tideway version}: prints the build version. */
@Command(name = "version", description = "Print the Tideway version.")
final class VersionCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().getOut().println("tideway " + BuildInfo.version());
    return 0;
  }

  /** Feeds {@code --version}. */
  static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"tideway " + BuildInfo.version()};
    }
  }
}

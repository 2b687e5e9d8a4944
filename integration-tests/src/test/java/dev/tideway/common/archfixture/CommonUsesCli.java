package dev.tideway.common.archfixture;

import dev.tideway.cli.Tideway;

/** Breaks the module layering on purpose (see BoundaryRulesCatchViolationsTest). */
public final class CommonUsesCli {
  Tideway launcher;
}

/**
 * Always-on invariant checks ({@link dev.tideway.common.check.Checks}): the replacement for the
 * {@code assert} keyword, which the JVM disables by default.
 */
package dev.tideway.common.check;

/**
 * Named fault-injection points ({@link dev.tideway.common.fault.FailPoints}) and the {@link
 * dev.tideway.common.fault.InjectedFault} they throw, so an injected failure is never mistaken for
 * a real bug.
 */
package dev.tideway.common.fault;

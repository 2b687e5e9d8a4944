/**
 * Exchange: how messages cross from the actors of one fragment to those of the next. The upstream
 * actor's root is a {@link dev.tideway.compute.exchange.DispatchExecutor} (every actor has one,
 * with zero or more dispatchers, which change at {@code Add} and {@code Stop} barriers) that routes
 * each message through its {@link dev.tideway.compute.exchange.Dispatcher}s (hash by vnode,
 * broadcast, simple, no-shuffle) into {@link dev.tideway.compute.exchange.OutputChannel}s; the
 * downstream actor's leaf is a {@link dev.tideway.compute.exchange.MergeExecutor} that polls {@link
 * dev.tideway.compute.exchange.InputChannel}s and aligns barriers with the barrier module's
 * aligner.
 *
 * <p>A channel joins one upstream actor to one downstream actor and is ordered. A local channel
 * ({@link dev.tideway.compute.exchange.LocalChannel}) is a bounded queue. A remote channel ({@link
 * dev.tideway.compute.exchange.RemoteOutput} → Artery → {@link
 * dev.tideway.compute.exchange.ExchangeEndpoint} → {@link
 * dev.tideway.compute.exchange.RemoteInput}) sends batched frames under credit-based flow control:
 * at most {@code window} frames are in flight or queued per channel, so a slow consumer blocks its
 * producer and memory stays bounded. Barriers travel in band, in the same frames as chunks.
 */
package dev.tideway.compute.exchange;

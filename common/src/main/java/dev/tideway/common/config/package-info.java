/**
 * Configuration: HOCON files layered with environment variables and command-line flags, read
 * through typed getters that validate and explain.
 *
 * <p>Flow: each module ships defaults under {@code tideway.<module>} in its {@code reference.conf}
 * → {@link dev.tideway.common.config.TidewayConfig#loader()} layers, lowest first, those defaults,
 * the node's config file, {@code TIDEWAY_*} environment variables and explicit overrides (CLI
 * flags), and checks every {@code tideway.*} key against the known ones → components read their
 * settings with the typed getters ({@code getDuration}, {@code getBytes}, {@code getHostPort},
 * ...), whose errors name the key, the bad value, where it came from and what is allowed.
 */
package dev.tideway.common.config;

/**
 * The benchmark SPI behind {@code tideway bench NAME} and common's own benchmark, {@code codec}.
 */
package dev.tideway.common.bench;

/** Prometheus metrics of the storage engine. */
package dev.tideway.storage.metrics;

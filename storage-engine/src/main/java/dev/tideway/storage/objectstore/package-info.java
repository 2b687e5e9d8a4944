/**
 * The ObjectStore SPI and its local-filesystem (temp + fsync + atomic rename) and in-memory
 * implementations.
 */
package dev.tideway.storage.objectstore;

/** The storage benchmark run by tideway bench storage. */
package dev.tideway.storage.bench;

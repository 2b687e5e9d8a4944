/**
 * The seeded, replayable random source; every other source of randomness is banned by the boundary
 * tests.
 */
package dev.tideway.common.random;

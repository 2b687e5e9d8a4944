/** The one factory of threads and pools; every thread is named after its role. */
package dev.tideway.common.exec;

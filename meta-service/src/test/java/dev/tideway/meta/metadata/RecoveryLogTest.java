package dev.tideway.meta.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.protocol.catalog.RecoveryLog;
import dev.tideway.protocol.catalog.RecoveryLog.Fate;
import org.junit.jupiter.api.Test;

class RecoveryLogTest {
  static final long G1 = 1L << 32;
  static final long G2 = G1 + 1;
  static final long G3 = 2L << 32;

  /** G1 from epoch 100; G2 from 140 (G1 committed up to 140); G3 from 140 (G2 committed none). */
  static final RecoveryLog LOG = RecoveryLog.EMPTY.append(G1, 100).append(G2, 140).append(G3, 140);

  @Test
  void aWriteCommittedIffItsGenerationCommittedAnEpochAtOrAboveIt() {
    assertThat(LOG.fate(G1, 120, 500)).isEqualTo(Fate.COMMITTED);
    assertThat(LOG.fate(G1, 140, 500)).isEqualTo(Fate.COMMITTED);
    assertThat(LOG.fate(G1, 150, 500))
        .as("G2's reset threw away G1's epochs above 140, whatever commits later")
        .isEqualTo(Fate.LOST);
    assertThat(LOG.fate(G2, 160, 500))
        .as("G2 committed nothing before G3 began")
        .isEqualTo(Fate.LOST);
  }

  @Test
  void theNewestGenerationIsJudgedByTheCommittedEpochReadBeforeTheLog() {
    assertThat(LOG.fate(G3, 200, 199))
        .as("checkpoints below the write's epoch may still be in flight")
        .isEqualTo(Fate.PENDING);
    assertThat(LOG.fate(G3, 200, 200)).isEqualTo(Fate.COMMITTED);
  }

  @Test
  void aGenerationBeforeTheFirstEntryIsJudgedByItsSuccessorUnlessEntriesWereDropped() {
    assertThat(LOG.fate(0, 90, 500)).isEqualTo(Fate.COMMITTED);
    assertThat(LOG.fate(0, 110, 500)).isEqualTo(Fate.LOST);
    RecoveryLog log = RecoveryLog.EMPTY;
    for (int i = 0; i < RecoveryLog.MAX_ENTRIES + 3; i++) {
      log = log.append(G1 + i, 100 + i);
    }
    assertThat(log.entries()).hasSize(RecoveryLog.MAX_ENTRIES);
    assertThat(log.truncated()).isTrue();
    assertThat(log.fate(G1, 100, 10_000)).isEqualTo(Fate.UNKNOWN);
    assertThat(log.fate(G1 + 3, 103, 10_000)).isEqualTo(Fate.COMMITTED);
    assertThat(RecoveryLog.decode(log.encode())).isEqualTo(log);
  }

  @Test
  void generationsMustAscend() {
    assertThatThrownBy(() -> LOG.append(G2, 500))
        .hasMessageContaining("recovery generation " + G2 + " is not above the last logged " + G3);
  }
}

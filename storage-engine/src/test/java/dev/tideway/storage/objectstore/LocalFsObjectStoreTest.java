package dev.tideway.storage.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalFsObjectStoreTest {
  @TempDir Path dir;

  /**
   * A recovery interrupts the actor threads it drops; one interrupted in the middle of an SST read
   * closes that file's channel. Every other reader of the SST must go on reading, or each rebuilt
   * actor fails on the same file and recovery never ends.
   */
  @Test
  void aReaderInterruptedMidReadDoesNotBreakTheFileForOtherReaders() throws Exception {
    LocalFsObjectStore store = new LocalFsObjectStore(dir);
    store.put("sst/1.parquet", "0123456789".getBytes(StandardCharsets.UTF_8));
    try (RandomAccessObject o = store.open("sst/1.parquet")) {
      AtomicReference<Throwable> seen = new AtomicReference<>();
      Thread interrupted =
          new Thread(
              () -> {
                Thread.currentThread().interrupt();
                try {
                  o.readFully(0, ByteBuffer.allocate(4));
                } catch (Throwable t) {
                  seen.set(t);
                }
              });
      interrupted.start();
      interrupted.join();
      assertThat(seen.get())
          .as("the interrupted reader learns it")
          .isInstanceOf(ClosedByInterruptException.class);

      ByteBuffer b = ByteBuffer.allocate(4);
      o.readFully(3, b);
      assertThat(new String(b.array(), StandardCharsets.UTF_8)).isEqualTo("3456");
      assertThat(o.length()).isEqualTo(10);
    }
  }

  @Test
  void aClosedObjectStaysClosed() throws Exception {
    LocalFsObjectStore store = new LocalFsObjectStore(dir);
    store.put("a", new byte[] {1, 2, 3});
    RandomAccessObject o = store.open("a");
    o.close();
    assertThatThrownBy(() -> o.readFully(0, ByteBuffer.allocate(1)))
        .isInstanceOf(ClosedChannelException.class);
  }

  /**
   * Processes sharing a store clear crashed uploads when they start; a compute node joining must
   * not delete the upload another node is finishing (its sync then failed and the epoch's rows were
   * lost to a recovery).
   */
  @Test
  void clearingTemporariesLeavesOtherProcessesUploadsAlone() throws Exception {
    LocalFsObjectStore store = new LocalFsObjectStore(dir);
    ObjectWriter crashed = store.create("sst/1.parquet");
    crashed.write(new byte[] {1});
    ObjectWriter inFlight = store.create("sst/2.parquet");
    inFlight.write(new byte[] {2});
    assertThat(store.deleteTemporaries(target -> target.equals("sst/1.parquet"))).isEqualTo(1);
    inFlight.commit();
    assertThat(store.read("sst/2.parquet")).containsExactly(2);
    assertThatThrownBy(crashed::commit).isInstanceOf(java.io.IOException.class);
  }

  /**
   * Other processes create and delete objects while a follower lists the version log (uploads,
   * vacuum of SSTs, pruning of deltas). A listing must never fail for an entry that vanished: the
   * walk of the whole store failed on SSTs deleted under it, and the follower's catch-up with it
   * ("could not follow the committed version", seen during compute kills).
   */
  @Test
  void listingStaysCorrectWhileOtherObjectsComeAndGo() throws Exception {
    LocalFsObjectStore store = new LocalFsObjectStore(dir);
    List<String> checkpoints = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      String p = String.format("version/checkpoint-%020d", i);
      store.put(p, new byte[] {(byte) i});
      checkpoints.add(p);
    }
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> churnFailed = new AtomicReference<>();
    Thread churn =
        new Thread(
            () -> {
              try {
                for (long n = 0; !stop.get(); n++) {
                  String sst = "sst/" + (n % 64) + ".parquet";
                  String delta = String.format("version/delta-%020d", n % 16);
                  if (store.exists(sst)) {
                    store.delete(sst);
                    store.delete(delta);
                  } else {
                    store.put(sst, new byte[8]);
                    store.put(delta, new byte[8]);
                  }
                }
              } catch (Throwable t) {
                churnFailed.set(t);
              }
            });
    churn.start();
    try {
      for (int i = 0; i < 3_000; i++) {
        assertThat(store.list("version/checkpoint-")).isEqualTo(checkpoints);
      }
    } finally {
      stop.set(true);
      churn.join();
    }
    assertThat(churnFailed.get()).isNull();
  }

  /** Of writers racing to create one object, exactly one wins and its bytes are what is there. */
  @Test
  void putIfAbsentHasExactlyOneWinnerOnADirectoryAndInMemory() throws Exception {
    for (ObjectStore store : List.of(new LocalFsObjectStore(dir), new InMemoryObjectStore())) {
      for (int round = 0; round < 20; round++) {
        String path = "version/delta/" + round;
        int writers = 6;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(writers);
        List<Thread> threads = new ArrayList<>();
        java.util.concurrent.ConcurrentLinkedQueue<Integer> winners =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (int w = 0; w < writers; w++) {
          int me = w;
          Thread t =
              new Thread(
                  () -> {
                    try {
                      start.await();
                      if (store.putIfAbsent(path, new byte[] {(byte) me})) {
                        winners.add(me);
                      }
                    } catch (Exception e) {
                      throw new RuntimeException(e);
                    }
                  });
          t.start();
          threads.add(t);
        }
        for (Thread t : threads) {
          t.join();
        }
        assertThat(winners).as("%s round %s", store.describe(), round).hasSize(1);
        assertThat(store.read(path)).containsExactly(winners.peek().byteValue());
      }
      assertThat(store.list("")).hasSize(20); // no temporaries left behind, none listed
    }
    assertThat(new LocalFsObjectStore(dir).deleteTemporaries()).isZero();
  }
}

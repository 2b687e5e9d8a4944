package dev.tideway.meta.cluster;

import static dev.tideway.meta.cluster.ZkFixture.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tideway.common.fault.FailPoints;
import dev.tideway.protocol.store.MetaPaths;
import dev.tideway.protocol.store.MetaStoreException;
import dev.tideway.protocol.store.MetaStoreException.Reason;
import dev.tideway.protocol.store.NodeRegistry;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Election, failover and fencing of meta processes against an in-process ZooKeeper. */
class LeaderElectionTest {
  /** A standby must take over within this bound once the leader is gone. */
  static final long TAKEOVER_BOUND_MS = 10_000;

  ZkFixture zk;
  MetaPaths paths = new MetaPaths("test");
  List<TestMeta> metas = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    zk = new ZkFixture();
  }

  @AfterEach
  void tearDown() throws Exception {
    FailPoints.reset();
    for (TestMeta m : metas) {
      m.close();
    }
    zk.close();
  }

  TestMeta start(String name) throws Exception {
    TestMeta m = new TestMeta(zk, paths, name);
    metas.add(m);
    return m;
  }

  List<TestMeta> leaders() {
    return metas.stream().filter(m -> m.elector.isLeader()).toList();
  }

  TestMeta awaitOneLeader() throws InterruptedException {
    awaitTrue("exactly one leader", TAKEOVER_BOUND_MS, () -> leaders().size() == 1);
    return leaders().get(0);
  }

  static MetaWrite put(String path, String value) {
    return new MetaWrite.Put(path, value.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void exactlyOneLeaderAmongThreeAndItPublishesItsAddress() throws Exception {
    start("meta-a");
    start("meta-b");
    start("meta-c");
    TestMeta leader = awaitOneLeader();
    NodeRegistry registry = new NodeRegistry(leader.client, paths);
    assertThat(registry.leader())
        .get()
        .extracting(l -> l.address())
        .isEqualTo(leader.name + ":5690");
    assertThat(registry.leader().get().epoch()).isEqualTo(leader.term().epoch());
    // hold still for a moment: nobody else claims leadership
    dev.tideway.common.time.Clock.system().sleepMillis(300);
    assertThat(leaders()).containsExactly(leader);
    assertThat(leader.events).containsExactly("elected " + leader.term().epoch());
  }

  @Test
  void standbyTakesOverWhenLeaderClosesWithAHigherEpoch() throws Exception {
    start("meta-a");
    start("meta-b");
    start("meta-c");
    TestMeta first = awaitOneLeader();
    int firstEpoch = first.term().epoch();
    first.store.commit(first.term(), List.of(put(paths.params(), "v1")));
    first.close();
    metas.remove(first);
    long tookMs = awaitTrue("a new leader", TAKEOVER_BOUND_MS, () -> leaders().size() == 1);
    TestMeta second = leaders().get(0);
    assertThat(second).isNotSameAs(first);
    assertThat(second.term().epoch()).isGreaterThan(firstEpoch);
    assertThat(tookMs).isLessThan(TAKEOVER_BOUND_MS);
    assertThat(new String(second.store.read(paths.params()).orElseThrow())).isEqualTo("v1");
    assertThat(first.events).containsExactly("elected " + firstEpoch, "deposed " + firstEpoch);
  }

  @Test
  void aLeaderThatResignsIsFencedAStandbyLeadsAndItRejoinsAsAStandby() throws Exception {
    TestMeta first = start("meta-a");
    awaitOneLeader();
    TestMeta standby = start("meta-b");
    LeaderTerm resigned = first.term();
    first.elector.resign(resigned, "test", 200);
    awaitTrue("the standby leads", TAKEOVER_BOUND_MS, standby.elector::isLeader);
    assertThat(standby.term().epoch()).isGreaterThan(resigned.epoch());
    assertThat(first.events)
        .containsExactly("elected " + resigned.epoch(), "deposed " + resigned.epoch());
    assertThatThrownBy(() -> first.store.commit(resigned, List.of(put(paths.params(), "stale"))))
        .as("the resigned term is fenced")
        .isInstanceOf(MetaStoreException.class);
    // once it rejoined, it takes over when the new leader goes
    int standbyEpoch = standby.term().epoch();
    dev.tideway.common.time.Clock.system().sleepMillis(500);
    standby.close();
    metas.remove(standby);
    awaitTrue("the resigned process leads again", TAKEOVER_BOUND_MS, first.elector::isLeader);
    assertThat(first.term().epoch()).isGreaterThan(standbyEpoch);
  }

  @Test
  void aResignationOfAnOldTermIsIgnored() throws Exception {
    TestMeta m = start("meta-a");
    awaitOneLeader();
    LeaderTerm t = m.term();
    m.elector.resign(new LeaderTerm(t.epoch(), t.latchPath() + "-of-another-term"), "stale", 0);
    dev.tideway.common.time.Clock.system().sleepMillis(300);
    assertThat(m.elector.isLeader()).isTrue();
    assertThat(m.term()).isEqualTo(t);
  }

  @Test
  void leaderWhoseSessionExpiredCannotWriteAndStandbyTakesOver() throws Exception {
    TestMeta old = start("meta-a");
    awaitOneLeader();
    TestMeta standby = start("meta-b");
    LeaderTerm oldTerm = old.term();
    old.store.commit(oldTerm, List.of(put(paths.params(), "before-expiry")));

    zk.expireSession(old.client);

    awaitTrue("standby leads", TAKEOVER_BOUND_MS, standby.elector::isLeader);
    assertThat(standby.term().epoch()).isGreaterThan(oldTerm.epoch());
    awaitTrue("old leader deposed", 5_000, () -> old.events.contains("deposed " + oldTerm.epoch()));
    // 1. the deposed leader's store refuses locally
    assertThatThrownBy(() -> old.store.commit(oldTerm, List.of(put(paths.params(), "local"))))
        .isInstanceOfSatisfying(
            MetaStoreException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FENCED));
    // 2. and ZooKeeper refuses too, even if the local check were skipped (a paused process)
    awaitTrue(
        "old client reconnected", 10_000, () -> old.client.getZookeeperClient().isConnected());
    assertThatThrownBy(
            () ->
                old.store.sendFenced(
                    oldTerm, List.of(put(paths.params(), "zk"), put(paths.job(7), "ghost-job"))))
        .isInstanceOfSatisfying(
            MetaStoreException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FENCED));
    // nothing it tried is visible, from either client
    for (TestMeta m : metas) {
      assertThat(new String(m.store.read(paths.params()).orElseThrow())).isEqualTo("before-expiry");
      assertThat(m.store.read(paths.job(7))).isEmpty();
    }
    // the new leader writes fine
    standby.store.commit(standby.term(), List.of(put(paths.params(), "after")));
    assertThat(new String(old.store.read(paths.params()).orElseThrow())).isEqualTo("after");
  }

  @Test
  void expiredSoleLeaderIsFencedByZooKeeperBeforeAnyoneElseLeads() throws Exception {
    TestMeta only = start("meta-a");
    awaitOneLeader();
    LeaderTerm oldTerm = only.term();
    zk.expireSession(only.client);
    awaitTrue("reconnected", 10_000, () -> only.client.getZookeeperClient().isConnected());
    // its latch znode died with the session: the old term can no longer write
    assertThatThrownBy(() -> only.store.sendFenced(oldTerm, List.of(put(paths.job(1), "x"))))
        .isInstanceOfSatisfying(
            MetaStoreException.class, e -> assertThat(e.reason()).isEqualTo(Reason.FENCED));
    assertThat(only.store.read(paths.job(1))).isEmpty();
    // it re-joins the election and leads again under a new, higher term
    awaitTrue("re-elected", TAKEOVER_BOUND_MS, () -> only.elector.isLeader());
    assertThat(only.term().epoch()).isGreaterThan(oldTerm.epoch());
  }

  @Test
  void leaderPausedMidCommitIsRejectedAfterFailover() throws Exception {
    TestMeta old = start("meta-a");
    awaitOneLeader();
    TestMeta standby = start("meta-b");
    LeaderTerm oldTerm = old.term();
    FailPoints.Pause pause = new FailPoints.Pause();
    FailPoints.enable(FencedMetaStore.FP_BEFORE_COMMIT, pause);
    CompletableFuture<Void> write =
        CompletableFuture.runAsync(
            () -> old.store.commit(oldTerm, List.of(put(paths.job(3), "from-paused-leader"))));
    assertThat(pause.reached().await(10, TimeUnit.SECONDS)).isTrue();
    FailPoints.disable(FencedMetaStore.FP_BEFORE_COMMIT);

    zk.expireSession(old.client);
    awaitTrue("standby leads", TAKEOVER_BOUND_MS, standby.elector::isLeader);
    pause.release();

    assertThatThrownBy(() -> write.get(20, TimeUnit.SECONDS))
        .hasCauseInstanceOf(MetaStoreException.class)
        .hasMessageContaining("FENCED");
    assertThat(standby.store.read(paths.job(3))).isEmpty();
  }
}

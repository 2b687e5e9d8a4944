package dev.tideway.meta.cluster;

import dev.tideway.common.time.Clock;
import dev.tideway.protocol.catalog.LeaderInfo;
import dev.tideway.protocol.store.MetaPaths;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.CuratorFramework;

/** One meta process for tests: its own ZooKeeper client, elector and fenced store. */
final class TestMeta implements AutoCloseable {
  final String name;
  final CuratorFramework client;
  final LeaderElector elector;
  final FencedMetaStore store;
  final List<String> events = new CopyOnWriteArrayList<>();

  TestMeta(ZkFixture zk, MetaPaths paths, String name) throws Exception {
    this.name = name;
    this.client = zk.newClient();
    LeadershipListener l =
        new LeadershipListener() {
          @Override
          public void onElected(LeaderTerm term) {
            events.add("elected " + term.epoch());
          }

          @Override
          public void onDeposed(LeaderTerm term, String reason) {
            events.add("deposed " + term.epoch());
          }
        };
    this.elector =
        new LeaderElector(
            client,
            paths,
            name,
            new LeaderInfo(name + ":5690", name + ":5691", 0),
            l,
            Clock.system());
    this.store = new FencedMetaStore(client, paths, elector::currentTerm);
    store.ensureLayout();
    elector.start();
  }

  LeaderTerm term() {
    return elector.currentTerm().orElseThrow();
  }

  @Override
  public void close() throws Exception {
    elector.close();
    client.close();
  }
}

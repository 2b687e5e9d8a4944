package dev.tideway.barrier.global;

import dev.tideway.barrier.control.TableStatsDelta;
import dev.tideway.barrier.message.Barrier;
import dev.tideway.barrier.progress.ProgressBatch;
import java.util.ArrayList;
import java.util.List;

/**
 * One barrier in flight: the nodes that must answer, who did, and what their answers carried. Owned
 * by the {@link GlobalBarrierCore}'s thread.
 */
final class InflightBarrier<S> {
  final Barrier barrier;
  final Topology topology;
  final long injectedAtMs;
  final Long commandId;
  final boolean[] answered;
  int remaining;
  final List<S> ssts = new ArrayList<>();
  final List<TableStatsDelta> statsDeltas = new ArrayList<>();
  final List<ProgressBatch> progress;

  InflightBarrier(Barrier barrier, Topology topology, long injectedAtMs, Long commandId) {
    this.barrier = barrier;
    this.topology = topology;
    this.injectedAtMs = injectedAtMs;
    this.commandId = commandId;
    this.answered = new boolean[topology.size()];
    this.remaining = topology.size();
    this.progress = new ArrayList<>(topology.size());
  }

  /** Node ids that have not answered yet. */
  List<Integer> waitingFor() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < answered.length; i++) {
      if (!answered[i]) {
        out.add(topology.nodes().get(i).nodeId());
      }
    }
    return out;
  }
}

package dev.tideway.protocol.catalog;

import dev.tideway.common.plan.DispatcherKind;
import dev.tideway.common.vnode.VnodeBitmap;
import dev.tideway.protocol.catalog.FragmentGraph.Actor;
import dev.tideway.protocol.catalog.FragmentGraph.Edge;
import dev.tideway.protocol.catalog.FragmentGraph.Fragment;

/** The nested structs of {@link FragmentGraph}; tags are local to each struct. */
final class FragmentCodec {
  static final int F_ID = 1;
  static final int F_DISTRIBUTION = 2;
  static final int F_EDGE = 3;
  static final int F_STATE_TABLE = 4;
  static final int F_BODY = 5;
  static final int E_UPSTREAM = 1;
  static final int E_KIND = 2;
  static final int E_DIST_KEY = 3;
  static final int E_CROSS_JOB = 4;
  static final int A_ID = 1;
  static final int A_FRAGMENT = 2;
  static final int A_NODE = 3;

  /** {@link VnodeBitmap#toBytes}: 32 bytes, vnode v = bit {@code v % 8} of byte {@code v / 8}. */
  static final int A_VNODES = 4;

  static final int A_UPSTREAM_ACTOR = 5;

  private FragmentCodec() {}

  static TaggedWriter encodeFragment(Fragment f) {
    TaggedWriter w =
        TaggedWriter.nested()
            .putInt(F_ID, f.fragmentId())
            .putByte(F_DISTRIBUTION, f.distribution().code())
            .putBytes(F_BODY, f.body());
    for (Edge e : f.upstreams()) {
      TaggedWriter ew =
          TaggedWriter.nested()
              .putInt(E_UPSTREAM, e.upstreamFragmentId())
              .putByte(E_KIND, e.kind().code())
              .putBoolean(E_CROSS_JOB, e.crossJob());
      e.distKeys().forEach(k -> ew.putInt(E_DIST_KEY, k));
      w.putNested(F_EDGE, ew);
    }
    f.stateTableIds().forEach(t -> w.putInt(F_STATE_TABLE, t));
    return w;
  }

  static Fragment decodeFragment(TaggedReader r) {
    return new Fragment(
        r.requireInt(F_ID),
        FragmentDistribution.fromCode(r.requireByte(F_DISTRIBUTION)),
        r.nestedAll(F_EDGE).stream()
            .map(
                e ->
                    new Edge(
                        e.requireInt(E_UPSTREAM),
                        DispatcherKind.fromCode(e.requireByte(E_KIND)),
                        e.longs(E_DIST_KEY).stream().map(Math::toIntExact).toList(),
                        e.getBoolean(E_CROSS_JOB, false)))
            .toList(),
        r.longs(F_STATE_TABLE).stream().map(Math::toIntExact).toList(),
        r.has(F_BODY) ? r.bytes(F_BODY) : new byte[0]);
  }

  static TaggedWriter encodeActor(Actor a) {
    TaggedWriter w =
        TaggedWriter.nested()
            .putInt(A_ID, a.actorId())
            .putInt(A_FRAGMENT, a.fragmentId())
            .putString(A_NODE, a.node())
            .putBytes(A_VNODES, a.vnodes().toBytes());
    a.upstreamActorIds().forEach(u -> w.putInt(A_UPSTREAM_ACTOR, u));
    return w;
  }

  static Actor decodeActor(TaggedReader r) {
    return new Actor(
        r.requireInt(A_ID),
        r.requireInt(A_FRAGMENT),
        r.requireString(A_NODE),
        VnodeBitmap.fromBytes(r.bytes(A_VNODES)),
        r.longs(A_UPSTREAM_ACTOR).stream().map(Math::toIntExact).toList());
  }
}

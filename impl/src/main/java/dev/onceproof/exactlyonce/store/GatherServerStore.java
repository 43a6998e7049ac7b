package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.storage.Snapshot;
import dev.onceproof.storage.SnapshotStore;
import java.util.Objects;

/**
 * A Strategy 4-6 server's stable storage for one client: K, D, TS, the session counter and the
 * aDeliver log ({@link GatherDurableState}), one snapshot per {@link ServerEffect.RecordGather}.
 * Over a {@link dev.onceproof.storage.FileSnapshotStore} a save is durable (fsync, atomic rename,
 * CRC32C) when it returns, so the caller may then carry out the step's later effects, the
 * {@code aDeliver} call included ({@link dev.onceproof.exactlyonce.ServerStep}). A corrupt file is
 * refused, naming it: a server that forgot its aDeliver log would deliver again.
 */
public final class GatherServerStore {

    private final SnapshotStore store;

    public GatherServerStore(SnapshotStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The stored state, or the initial one for a server that never saved; corrupt -> exception. */
    public GatherDurableState load() {
        return store.read().map(s -> GatherCodec.decodeServer(store.where(), s.payload()))
                .orElseGet(GatherDurableState::initial);
    }

    public void save(ServerEffect.RecordGather record) {
        store.write(new Snapshot(store.generation() + 1, GatherCodec.encodeServer(record.state())));
    }
}

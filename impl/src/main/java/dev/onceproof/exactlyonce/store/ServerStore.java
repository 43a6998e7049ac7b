package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.storage.Snapshot;
import dev.onceproof.storage.SnapshotStore;
import java.util.Objects;

/**
 * A server's stable storage for one client: K, D, the counter, removals, the sync round and the
 * Condition 1 confirmations (notes Z13), one snapshot per {@link ServerEffect.Record}. The caller
 * saves a step's record before carrying out its sends ({@link dev.onceproof.exactlyonce.ServerStep}).
 */
public final class ServerStore {

    private final SnapshotStore store;

    public ServerStore(SnapshotStore store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /** The stored state, or the initial one for a server that never saved; corrupt -> exception. */
    public ServerDurableState load() {
        return store.read().map(s -> StateCodec.decodeServer(store.where(), s.payload()))
                .orElseGet(ServerDurableState::initial);
    }

    public void save(ServerEffect.Record record) {
        store.write(new Snapshot(store.generation() + 1, StateCodec.encodeServer(record.state())));
    }
}

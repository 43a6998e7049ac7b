package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.storage.Snapshot;
import dev.onceproof.storage.SnapshotStore;
import java.util.Objects;
import java.util.function.Function;
import dev.onceproof.storage.CorruptSnapshotException;

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

    /**
     * The server core built from the stored state; a state the core refuses (a note id outside its
     * strategy's range, say) stops with a {@link CorruptSnapshotException} naming the file.
     */
    public <C> C restore(Function<ServerDurableState, C> build) {
        ServerDurableState stored = load();
        try {
            return build.apply(stored);
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(store.where(), "the server core refuses its state: " + e.getMessage());
        }
    }

    public void save(ServerEffect.Record record) {
        store.write(new Snapshot(store.generation() + 1, StateCodec.encodeServer(record.state())));
    }
}

package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The messages of Strategies 0-3 (App. A). Every record checks its own shape (nothing null, sets
 * bounded, a note addressed to the message's client); a core additionally checks the values against
 * its strategy ({@link Limits}) before it changes any state.
 */
public sealed interface EoMessage {

    /** Most ids one sync message may carry; a larger one is refused, naming the field. */
    int MAX_IDS = 1 << 16;

    /** {@code Deliver(c, m)} from a server to the client (App. A.2 HandleClient). */
    record NoteDelivery(ServerId from, ClientId to, Note note) implements EoMessage {
        public NoteDelivery {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(note, "note");
            if (!note.client().equals(to)) {
                throw new InvalidMessageException("note.client", "note " + note.id() + " is for client "
                        + note.client() + ", message is to " + to);
            }
        }
    }

    /** The acknowledgement that completes {@code Deliver(c, m)} successfully at the server. */
    record NoteAck(ClientId from, ServerId to, NoteId id) implements EoMessage {
        public NoteAck {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(id, "id");
        }
    }

    /** "Please purge i" (App. A.4 ServerSynch): the client may drop {@code id} from R. */
    record PurgeRequest(ServerId from, ClientId to, NoteId id) implements EoMessage {
        public PurgeRequest {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(id, "id");
        }
    }

    /** The acknowledgement of a purge request: the client no longer holds {@code id} in R. */
    record PurgeAck(ClientId from, ServerId to, NoteId id) implements EoMessage {
        public PurgeAck {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * "Server synchronization: K, D" for one client's notes (App. A.4), plus the ids this server
     * removed after a successful delivery (Strategies 0-2, notes Z15). {@code round} numbers the
     * sender's synchronizations, so a reply can be matched with the request it answers.
     * {@code seen} (Strategy 3) is the snapshot's watermark: how many notes had entered the sender's
     * K when it was built, so the receiver reads a note's absence from {@code k} as "purged there"
     * only for notes the snapshot could have known (see {@link S3Server}).
     */
    record SyncRequest(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
            SortedSet<NoteId> d, SortedSet<NoteId> removed, long seen) implements EoMessage {

        /** Without a watermark ({@code seen = 0}: the snapshot vouches for no note; Strategies 0-2). */
        public SyncRequest(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
                SortedSet<NoteId> d, SortedSet<NoteId> removed) {
            this(from, to, client, round, k, d, removed, 0);
        }

        public SyncRequest {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(client, "client");
            if (round < 0) {
                throw new InvalidMessageException("round", round + " is negative");
            }
            if (seen < 0) {
                throw new InvalidMessageException("seen", seen + " is negative");
            }
            k = copy("k", k);
            d = copy("d", d);
            removed = copy("removed", removed);
        }
    }

    /**
     * "Synchronization reply: K, D" (App. A.4), built after the replier merged the request;
     * {@code seen} as in {@link SyncRequest}.
     */
    record SyncReply(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
            SortedSet<NoteId> d, SortedSet<NoteId> removed, long seen) implements EoMessage {

        /** Without a watermark ({@code seen = 0}: the snapshot vouches for no note; Strategies 0-2). */
        public SyncReply(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
                SortedSet<NoteId> d, SortedSet<NoteId> removed) {
            this(from, to, client, round, k, d, removed, 0);
        }

        public SyncReply {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(client, "client");
            if (round < 0) {
                throw new InvalidMessageException("round", round + " is negative");
            }
            if (seen < 0) {
                throw new InvalidMessageException("seen", seen + " is negative");
            }
            k = copy("k", k);
            d = copy("d", d);
            removed = copy("removed", removed);
        }
    }

    /** A new note replicated from its origin to another server (the replication protocol, L36). */
    record Replica(ServerId from, ServerId to, Note note) implements EoMessage {
        public Replica {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(note, "note");
        }
    }

    private static SortedSet<NoteId> copy(String field, Set<NoteId> ids) {
        Objects.requireNonNull(ids, field);
        if (ids.size() > MAX_IDS) {
            throw new InvalidMessageException(field, ids.size() + " ids, above " + MAX_IDS);
        }
        for (NoteId id : ids) {
            Objects.requireNonNull(id, field + " element");
        }
        return java.util.Collections.unmodifiableSortedSet(new TreeSet<>(ids));
    }
}

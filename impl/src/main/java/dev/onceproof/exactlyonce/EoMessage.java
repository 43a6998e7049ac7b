package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The messages of Strategies 0-6 (App. A). Every record checks its own shape (nothing null, sets
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
     * removed after a successful delivery (Strategies 0-2, notes Z15; Strategy 1 sends the highest
     * of each stream, which stands for the delivered prefix up to it). {@code round} numbers the
     * sender's synchronizations, so a reply can be matched with the request it answers.
     * {@code seen} (Strategy 3) is the snapshot's watermark: how many notes had entered the sender's
     * K when it was built, so the receiver reads a note's absence from {@code k} as "purged there"
     * only for notes the snapshot could have known (see {@link S3Server}).
     */
    record SyncRequest(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
            SortedSet<NoteId> d, SortedSet<NoteId> removed, long seen, SortedMap<NoteId, Long> tags)
            implements EoMessage {

        /** Without a watermark ({@code seen = 0}: the snapshot vouches for no note; Strategies 0-2). */
        public SyncRequest(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
                SortedSet<NoteId> d, SortedSet<NoteId> removed) {
            this(from, to, client, round, k, d, removed, 0);
        }

        /** Without tags (every strategy but 2; Strategy 2 before removals named their incarnation). */
        public SyncRequest(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
                SortedSet<NoteId> d, SortedSet<NoteId> removed, long seen) {
            this(from, to, client, round, k, d, removed, seen, new TreeMap<>());
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
            tags = copyTags("tags", tags, removed);
        }
    }

    /**
     * "Synchronization reply: K, D" (App. A.4), built after the replier merged the request;
     * {@code seen} as in {@link SyncRequest}.
     */
    record SyncReply(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
            SortedSet<NoteId> d, SortedSet<NoteId> removed, long seen, SortedMap<NoteId, Long> tags)
            implements EoMessage {

        /** Without a watermark ({@code seen = 0}: the snapshot vouches for no note; Strategies 0-2). */
        public SyncReply(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
                SortedSet<NoteId> d, SortedSet<NoteId> removed) {
            this(from, to, client, round, k, d, removed, 0);
        }

        /** Without tags (every strategy but 2; Strategy 2 before removals named their incarnation). */
        public SyncReply(ServerId from, ServerId to, ClientId client, long round, SortedSet<NoteId> k,
                SortedSet<NoteId> d, SortedSet<NoteId> removed, long seen) {
            this(from, to, client, round, k, d, removed, seen, new TreeMap<>());
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
            tags = copyTags("tags", tags, removed);
        }
    }

    /**
     * A new note replicated from its origin to another server (the replication protocol, L36).
     * {@code issue} (Strategy 2) is the origin's counter when it numbered the note, which tells its
     * incarnations apart (ExactlyOnceS2MsgAsync's {@code Ord}); {@link #NO_ISSUE} elsewhere.
     */
    record Replica(ServerId from, ServerId to, Note note, long issue) implements EoMessage {

        /** Without an issue number (every strategy but 2). */
        public Replica(ServerId from, ServerId to, Note note) {
            this(from, to, note, NO_ISSUE);
        }

        public Replica {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(note, "note");
            if (issue < NO_ISSUE) {
                throw new InvalidMessageException("issue", issue + " is below " + NO_ISSUE + " (none)");
            }
        }
    }

    /** A replica's issue number when it has none. */
    long NO_ISSUE = -1;

    /** Most servers a {@link ReplicaCommit} may name (as many as a connect history, {@link ClientHistory}). */
    int MAX_SERVERS = ClientHistory.MAX_SERVERS;

    /**
     * The acknowledged replication round ({@link S3Server}): {@code from} has stored the replica of
     * note {@code id} (durably) as its {@code number}-th note, and tells the note's origin {@code to}.
     */
    record ReplicaAck(ServerId from, ServerId to, ClientId client, NoteId id, long number) implements EoMessage {
        public ReplicaAck {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(id, "id");
            if (number < 1) {
                throw new InvalidMessageException("number", number + " is below 1 (notes are numbered from 1)");
            }
        }
    }

    /**
     * The round's end, from the note's origin: every server has stored note {@code id}, so it may be
     * delivered; {@code numbers} is every server's number for it (the origin's and each ack's), which
     * the receiver reads a sync's watermark against ({@link S3Server}).
     */
    record ReplicaCommit(ServerId from, ServerId to, ClientId client, NoteId id, SortedMap<ServerId, Long> numbers)
            implements EoMessage {
        public ReplicaCommit {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(numbers, "numbers");
            if (numbers.size() < 2 || numbers.size() > MAX_SERVERS) {
                throw new InvalidMessageException("numbers", numbers.size() + " servers, not 2.." + MAX_SERVERS);
            }
            TreeMap<ServerId, Long> copy = new TreeMap<>();
            numbers.forEach((s, n) -> {
                Objects.requireNonNull(s, "numbers server");
                if (n == null || n < 1) {
                    throw new InvalidMessageException("numbers[" + s + "]", n + " is not a number from 1");
                }
                copy.put(s, n);
            });
            if (!copy.containsKey(from) || !copy.containsKey(to)) {
                throw new InvalidMessageException("numbers", "names " + copy.keySet() + ", not both " + from
                        + " and " + to);
            }
            numbers = java.util.Collections.unmodifiableSortedMap(copy);
        }
    }

    // ---- Strategies 4-6 (3.3.2, App. A.6-A.8): the gather, periodic/push syncs, the client's history ----

    /** A timestamp carried in a message: a clock reading, never negative. */
    private static void checkTime(String field, long t) {
        if (t < 0) {
            throw new InvalidMessageException(field, t + " is negative; a clock reading is at least 0");
        }
    }

    /**
     * "Request for list D" (App. A.6-A.8 HandleClient): server {@code from} gathers before its session
     * {@code session} may deliver; the reply names the same session, so a late reply to an ended
     * session is recognised and dropped.
     */
    record DRequest(ServerId from, ServerId to, ClientId client, long session) implements EoMessage {
        public DRequest {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(client, "client");
            if (session < 1) {
                throw new InvalidMessageException("session", session + " is below 1");
            }
        }
    }

    /**
     * The reply to a {@link DRequest}: the replier's D and {@code ts}, its clock when it SENT the
     * reply (App. A.7 {@code TS[s] = m.timestamp}; L476: "m.timestamp will contain the local
     * timestamp when m was sent"; notes Z11). The D is the replier's D at that instant.
     */
    record DReply(ServerId from, ServerId to, ClientId client, long session, long ts, SortedSet<NoteId> d)
            implements EoMessage {
        public DReply {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(client, "client");
            if (session < 1) {
                throw new InvalidMessageException("session", session + " is below 1");
            }
            checkTime("ts", ts);
            d = copy("d", d);
        }
    }

    /**
     * A synchronization message of Strategies 4-6: Strategy 4's PurgeSync, Strategy 5's PeriodicSync
     * (every T_u, L229) and Strategy 6's PushSync (after a connection ends, L246). It carries the
     * sender's D and its SEND time {@code ts} (the receiver's {@code TS[from]}, Z11), and the sender's K
     * ids so the receiver can drop what the sender purged (App. A.4's K-difference, space only).
     * {@code seen} is the snapshot's watermark: how many notes had entered the sender's K when it was
     * built, so the receiver reads a note's absence from {@code k} as "purged there" only for notes
     * the snapshot could have known (see {@link GatherServer#recvPurgeSync}).
     */
    record DSync(ServerId from, ServerId to, ClientId client, long ts, SortedSet<NoteId> k, SortedSet<NoteId> d,
            long seen) implements EoMessage {

        /**
         * Without a watermark ({@code seen = 0}: the snapshot vouches for no note, so the receiver
         * takes no note as purged by its absence from {@code k}; fine for Strategies 5-6's
         * {@code recvSync}, which never purges).
         */
        public DSync(ServerId from, ServerId to, ClientId client, long ts, SortedSet<NoteId> k, SortedSet<NoteId> d) {
            this(from, to, client, ts, k, d, 0);
        }

        public DSync {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(client, "client");
            checkTime("ts", ts);
            if (seen < 0) {
                throw new InvalidMessageException("seen", seen + " is negative");
            }
            k = copy("k", k);
            d = copy("d", d);
            if (!k.containsAll(d)) {
                throw new InvalidMessageException("d", "ids " + difference(d, k) + " are not in k (D is a subset of K)");
            }
        }
    }

    /**
     * Strategy 6: the client uploads its connect history H first thing in a connection (App. A.8
     * {@code Receive(H)}), as {@link ClientHistory} (UNKNOWN when lost, OPEN for a connection that
     * never ended cleanly, notes Z17).
     */
    record HistoryUpload(ClientId from, ServerId to, ClientHistory history) implements EoMessage {
        public HistoryUpload {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(history, "history");
        }
    }

    private static SortedSet<NoteId> difference(Set<NoteId> a, Set<NoteId> b) {
        TreeSet<NoteId> out = new TreeSet<>(a);
        out.removeAll(b);
        return out;
    }

    /**
     * Strategy 2's tags: removed id -> the issue number of the incarnation the removal names
     * (ExactlyOnceS2MsgAsync's {@code tags}); only ids of {@code removed}, numbers from 0.
     */
    private static SortedMap<NoteId, Long> copyTags(String field, SortedMap<NoteId, Long> tags, Set<NoteId> removed) {
        Objects.requireNonNull(tags, field);
        TreeMap<NoteId, Long> out = new TreeMap<>();
        tags.forEach((id, issue) -> {
            Objects.requireNonNull(id, field + " id");
            if (!removed.contains(id)) {
                throw new InvalidMessageException(field, "tags " + id + ", which removed does not list");
            }
            if (issue == null || issue < 0) {
                throw new InvalidMessageException(field + "[" + id.text() + "]", issue + " is not an issue number");
            }
            out.put(id, issue);
        });
        return java.util.Collections.unmodifiableSortedMap(out);
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

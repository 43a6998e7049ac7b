package dev.onceproof.exactlyonce;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One change a Strategy 0-3 server core makes to its durable state ({@link ServerDurableState}), as
 * the core makes it (issue 19 item 2: an effect carries the change, not the whole state). A step's
 * {@link ServerEffect.Record} carries the list of the step's operations in the order the core made
 * them; a store writes that list as ONE journal record, so a crash keeps a step's changes all or
 * none (a step may, say, forget a note and record its removal: half of that is a state no run
 * reaches). {@link ServerDurableState.Builder#apply} is the pure function recovery applies, at the
 * cost of the change, not of the state.
 *
 * <p>Named after the state change; the spec's action that makes it is in each record's doc.
 */
public sealed interface ServerOp {

    /**
     * Note {@code note} enters K with entry number {@code number}, which is the new {@code seen}
     * ({@code CreateNote}, a replica stored).
     */
    record Enter(Note note, long number) implements ServerOp {
        public Enter {
            Objects.requireNonNull(note, "note");
            if (number < 1) {
                throw new IllegalArgumentException("entry number " + number + " of note " + note.id() + " must be >= 1");
            }
        }
    }

    /**
     * Note {@code id} leaves K, and with it everything kept per note of K: D, its entry number, its
     * round's numbers and origin (an ack in Strategies 0-2, a purge or a sync's K-difference in 3).
     */
    record Forget(NoteId id) implements ServerOp {
        public Forget {
            Objects.requireNonNull(id, "id");
        }
    }

    /** Strategy 3: {@code id} (in K) joins D (an ack, or a peer's D by sync). */
    record AddD(NoteId id) implements ServerOp {
        public AddD {
            Objects.requireNonNull(id, "id");
        }
    }

    /** Strategies 0-2: {@code id} joins {@code removed} (Strategy 1: its stream's new prefix). */
    record AddRemoved(NoteId id) implements ServerOp {
        public AddRemoved {
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * Strategies 0-2: {@code id} leaves {@code removed} (a reused number; Strategy 1's old prefix;
     * Strategy 0's forget rule), and with it Strategy 0's confirmations of it.
     */
    record DropRemoved(NoteId id) implements ServerOp {
        public DropRemoved {
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * Strategy 0: a sync message of server {@code by} named {@code id} (in {@code removed}) removed,
     * first at time {@code at} (ExactlyOnceS0Msg's {@code Confirm}; the forget rule waits T_e from it).
     */
    record ConfirmRemoved(NoteId id, ServerId by, long at) implements ServerOp {
        public ConfirmRemoved {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(by, "by");
        }
    }

    /**
     * Strategy 2: what this server knows of wire id {@code id} is of the incarnation its origin
     * numbered {@code issue} (its counter then): the note held in K, or, once removed, the
     * incarnation its removal names (ExactlyOnceS2MsgAsync's {@code tag}, rule "tag").
     */
    record SetIssue(NoteId id, long issue) implements ServerOp {
        public SetIssue {
            Objects.requireNonNull(id, "id");
            if (issue < 0) {
                throw new IllegalArgumentException("issue number " + issue + " of " + id + " must be >= 0");
            }
        }
    }

    /** Strategies 0-2: the stream counter is now {@code ctr} (a note numbered). */
    record SetCtr(long ctr) implements ServerOp {
    }

    /** The sync round counter is now {@code round} ({@code startSync}). */
    record SetRound(long round) implements ServerOp {
    }

    /**
     * Strategy 2: number {@code seq} was (re)issued in sync round {@code round}; the confirmations of
     * its older incarnation no longer count.
     */
    record Issue(long seq, long round) implements ServerOp {
    }

    /** Strategy 2: server {@code by} confirmed number {@code seq} gone at time {@code at} (Condition 1). */
    record Confirm(long seq, ServerId by, long at) implements ServerOp {
        public Confirm {
            Objects.requireNonNull(by, "by");
        }
    }

    /**
     * Strategy 3's replication round: the numbers of note {@code id} known here are now
     * {@code numbers} (a note stored: our own; a commit: every server's).
     */
    record SetNumbers(NoteId id, SortedMap<ServerId, Long> numbers) implements ServerOp {
        public SetNumbers {
            Objects.requireNonNull(id, "id");
            numbers = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(numbers, "numbers")));
        }
    }

    /** Strategy 3's replication round: server {@code by} acknowledged note {@code id} as its {@code number}. */
    record Number(NoteId id, ServerId by, long number) implements ServerOp {
        public Number {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(by, "by");
        }
    }

    /** Strategy 3's replication round: note {@code id}'s round is open here, and {@code origin} runs it. */
    record Origin(NoteId id, ServerId origin) implements ServerOp {
        public Origin {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(origin, "origin");
        }
    }

    /** Strategy 3's replication round: note {@code id}'s round is complete here (it leaves origins). */
    record Complete(NoteId id) implements ServerOp {
        public Complete {
            Objects.requireNonNull(id, "id");
        }
    }
}

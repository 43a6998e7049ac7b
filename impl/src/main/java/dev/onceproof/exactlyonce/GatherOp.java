package dev.onceproof.exactlyonce;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One change a Strategy 4-6 server core makes to its durable state ({@link GatherDurableState}),
 * named after the spec's action or the field it changes. A step's changes travel as a list in its
 * {@link ServerEffect.RecordGather}; a store makes that list durable as ONE journal record, so
 * recovery sees a step whole or not at all. Why not op by op: a step's changes are not valid alone.
 * {@code createNote} enters a note and opens its replication round; with only the {@link Enter}
 * durable, the note would sit in K without round numbers, which reads "predates the round,
 * complete", and be delivered here before every server stored it. Likewise a purge sync's purges
 * and merged D only keep D within K together.
 *
 * <p>{@link GatherDurableState.Builder#apply} applies one, at the cost of the change (recovery:
 * the checkpoint plus every op after it).
 */
public sealed interface GatherOp {

    /** createNote / receiveReplica: the note enters K as number {@code number} (= the new seen). */
    record Enter(Note note, long number) implements GatherOp {
        public Enter {
            Objects.requireNonNull(note, "note");
            if (number < 1) {
                throw new IllegalArgumentException("entry number " + number + " of note " + note.id() + " is below 1");
            }
        }
    }

    /** The replication round opens for {@code id} (at its origin or on a replica): these numbers, this origin. */
    record OpenRound(NoteId id, ServerId origin, SortedMap<ServerId, Long> numbers) implements GatherOp {
        public OpenRound {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(origin, "origin");
            numbers = Collections.unmodifiableSortedMap(new TreeMap<>(numbers));
        }
    }

    /** At the origin: {@code server} acknowledged {@code id} as its number {@code number}. */
    record AckRound(NoteId id, ServerId server, long number) implements GatherOp {
        public AckRound {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(server, "server");
        }
    }

    /** The round of {@code id} is complete here, with every server's number. */
    record CommitRound(NoteId id, SortedMap<ServerId, Long> numbers) implements GatherOp {
        public CommitRound {
            Objects.requireNonNull(id, "id");
            numbers = Collections.unmodifiableSortedMap(new TreeMap<>(numbers));
        }
    }

    /** {@code id} joins D (recvD, recvSync, recvPurgeSync: a peer delivered it). */
    record AddD(NoteId id) implements GatherOp {
        public AddD {
            Objects.requireNonNull(id, "id");
        }
    }

    /** Strategies 5-6: {@code TS[server] := ts} (the max of the old value and a report's send time). */
    record SetTs(ServerId server, long ts) implements GatherOp {
        public SetTs {
            Objects.requireNonNull(server, "server");
        }
    }

    /** StartSession: the session counter is now {@code sessions} (the new session's id). */
    record StartSession(long sessions) implements GatherOp {
    }

    /** aDeliver: the attempt of {@code session} for {@code id} is logged, its outcome unknown (before the call). */
    record LogAttempt(NoteId id, long session) implements GatherOp {
        public LogAttempt {
            Objects.requireNonNull(id, "id");
        }
    }

    /** ADeliverOK: the attempt's success is logged and {@code id} joins D, together (the commit point, Z9). */
    record ADeliverOk(NoteId id, long session) implements GatherOp {
        public ADeliverOk {
            Objects.requireNonNull(id, "id");
        }
    }

    /** ADeliverErr: the attempt leaves the log (L191: the note may be tried again). */
    record ADeliverErr(NoteId id) implements GatherOp {
        public ADeliverErr {
            Objects.requireNonNull(id, "id");
        }
    }

    /** A purge (EndGather in Strategy 4, recvPurgeSync): {@code id} leaves K, D, the log and the round. */
    record Purge(NoteId id) implements GatherOp {
        public Purge {
            Objects.requireNonNull(id, "id");
        }
    }
}

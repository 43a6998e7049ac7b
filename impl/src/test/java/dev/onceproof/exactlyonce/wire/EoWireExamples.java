package dev.onceproof.exactlyonce.wire;

import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerId;
import java.util.List;
import java.util.TreeSet;

/** One message of every {@link EoMessage} variant. */
final class EoWireExamples {

    private EoWireExamples() {
    }

    static List<EoMessage> one() {
        ServerId a = ServerId.of("A");
        ServerId b = ServerId.of("B");
        ClientId c = ClientId.of("c");
        NoteId i = NoteId.sequenced(a, 3);
        TreeSet<NoteId> k = new TreeSet<>(List.of(NoteId.sequenced(a, 3), NoteId.sequenced(a, 4), NoteId.sequenced(b, 1),
                NoteId.global("n1")));
        TreeSet<NoteId> d = new TreeSet<>(List.of(NoteId.sequenced(a, 3)));
        return List.of(
                new EoMessage.NoteDelivery(a, c, new Note(i, c, "hello")),
                new EoMessage.NoteAck(c, a, i),
                new EoMessage.PurgeRequest(a, c, i),
                new EoMessage.PurgeAck(c, a, i),
                new EoMessage.SyncRequest(a, b, c, 7, k, d, new TreeSet<>(), 12),
                new EoMessage.SyncReply(b, a, c, 7, k, new TreeSet<>(), d),
                new EoMessage.Replica(a, b, new Note(i, c, "")),
                new EoMessage.DRequest(a, b, c, 1),
                new EoMessage.DReply(b, a, c, 1, 1_000_000, d),
                new EoMessage.DSync(a, b, c, 42, k, d, 5),
                new EoMessage.HistoryUpload(c, a, ClientHistory.never().ended(b, 17).opened(a)),
                new EoMessage.ReplicaAck(b, a, c, NoteId.global("n1"), 300),
                new EoMessage.ReplicaCommit(a, b, c, NoteId.global("n1"),
                        new java.util.TreeMap<>(java.util.Map.of(a, 1L, b, 300L))));
    }
}

package dev.onceproof.exactlyonce.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.InvalidMessageException;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerId;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Round trip and fuzzing of {@link EoWire} over every {@link EoMessage} variant: encode then decode
 * gives the message back; the format is canonical (a decoded byte string re-encodes to itself, so
 * no two encodings of one message exist); every proper prefix and every byte string with extra
 * bytes is refused; random mutations and random bytes are either refused with an
 * {@link InvalidMessageException} naming a field, or decode to a message that encodes to exactly
 * those bytes. Nothing else is ever thrown.
 */
class EoWireProperties {

    static Arbitrary<String> names() {
        return Arbitraries.strings().withCharRange('!', '~').excludeChars('.').ofMinLength(1).ofMaxLength(12)
                .edgeCases(c -> c.add("A"));
    }

    static Arbitrary<ServerId> servers() {
        return Arbitraries.oneOf(Arbitraries.of("A", "B", "s0", "s9"), names()).map(ServerId::of);
    }

    static Arbitrary<ClientId> clients() {
        return Arbitraries.oneOf(Arbitraries.of("c"), names()).map(ClientId::of);
    }

    static Arbitrary<NoteId> ids() {
        Arbitrary<NoteId> seq = Combinators.combine(Arbitraries.of("A", "B", "s1"),
                Arbitraries.oneOf(Arbitraries.longs().between(0, 200), Arbitraries.longs().between(0, Long.MAX_VALUE)))
                .as((s, n) -> NoteId.sequenced(ServerId.of(s), n));
        Arbitrary<NoteId> global = Arbitraries.oneOf(Arbitraries.of("n1", "n2", "n000000007"), names()).map(NoteId::global);
        return Arbitraries.oneOf(seq, global);
    }

    static Arbitrary<TreeSet<NoteId>> idSets() {
        return ids().set().ofMaxSize(40).map(TreeSet::new);
    }

    static Arbitrary<String> bodies() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(60), Arbitraries.strings().all().ofMaxLength(30),
                Arbitraries.of("", "note", "é€𝄞"), Arbitraries.strings().withCharRange('a', 'z')
                        .ofLength(Note.MAX_BODY)).filter(EoWireProperties::wellFormed);
    }

    static boolean wellFormed(String s) {
        return java.nio.charset.StandardCharsets.UTF_8.newEncoder().canEncode(s);
    }

    @Provide
    Arbitrary<EoMessage> messages() {
        Arbitrary<EoMessage> delivery = Combinators.combine(servers(), clients(), ids(), bodies())
                .as((s, c, i, b) -> new EoMessage.NoteDelivery(s, c, new Note(i, c, b)));
        Arbitrary<EoMessage> ack = Combinators.combine(clients(), servers(), ids()).as(EoMessage.NoteAck::new);
        Arbitrary<EoMessage> purge = Combinators.combine(servers(), clients(), ids()).as(EoMessage.PurgeRequest::new);
        Arbitrary<EoMessage> purgeAck = Combinators.combine(clients(), servers(), ids()).as(EoMessage.PurgeAck::new);
        Arbitrary<Long> rounds = Arbitraries.oneOf(Arbitraries.longs().between(0, 300),
                Arbitraries.longs().between(0, Long.MAX_VALUE));
        Arbitrary<EoMessage> syncReq = Combinators.combine(servers(), servers(), clients(), rounds, idSets(), idSets(),
                idSets(), rounds).as(EoMessage.SyncRequest::new);
        Arbitrary<EoMessage> syncRep = Combinators.combine(servers(), servers(), clients(), rounds, idSets(), idSets(),
                idSets(), rounds).as(EoMessage.SyncReply::new);
        Arbitrary<EoMessage> replica = Combinators.combine(servers(), servers(), ids(), clients(), bodies())
                .as((f, t, i, c, b) -> new EoMessage.Replica(f, t, new Note(i, c, b)));
        Arbitrary<Long> sessions = Arbitraries.oneOf(Arbitraries.longs().between(1, 50),
                Arbitraries.longs().between(1, Long.MAX_VALUE));
        Arbitrary<Long> times = Arbitraries.oneOf(Arbitraries.longs().between(0, 1_000_000),
                Arbitraries.longs().between(0, Long.MAX_VALUE));
        Arbitrary<EoMessage> dReq = Combinators.combine(servers(), servers(), clients(), sessions)
                .as(EoMessage.DRequest::new);
        Arbitrary<EoMessage> dRep = Combinators.combine(servers(), servers(), clients(), sessions, times, idSets())
                .as(EoMessage.DReply::new);
        Arbitrary<EoMessage> dSync = Combinators.combine(servers(), servers(), clients(), times, idSets(),
                Arbitraries.integers().between(0, 40), times).as((f, t, c, ts, k, keep, seen) -> {
                    TreeSet<NoteId> d = new TreeSet<>();
                    int n = 0;
                    for (NoteId id : k) {
                        if (n++ % 3 == keep % 3) {
                            d.add(id);
                        }
                    }
                    return new EoMessage.DSync(f, t, c, ts, k, d, seen);
                });
        Arbitrary<ClientHistory> histories = Combinators.combine(Arbitraries.of(true, false),
                Arbitraries.maps(servers(), times).ofMaxSize(6), servers().set().ofMaxSize(4))
                .as((complete, ended, open) -> {
                    TreeSet<ServerId> o = new TreeSet<>(open);
                    o.removeAll(ended.keySet());
                    return new ClientHistory(complete, new java.util.TreeMap<>(ended), o);
                });
        Arbitrary<EoMessage> upload = Combinators.combine(clients(), servers(), histories).as(EoMessage.HistoryUpload::new);
        Arbitrary<EoMessage> replicaAck = Combinators.combine(servers(), servers(), clients(), ids(), sessions)
                .as(EoMessage.ReplicaAck::new);
        Arbitrary<EoMessage> commit = Combinators.combine(servers(), servers(), clients(), ids(),
                Arbitraries.maps(servers(), sessions).ofMaxSize(5), sessions, sessions).as((f, t, c, i, m, nf, nt) -> {
                    java.util.TreeMap<ServerId, Long> nums = new java.util.TreeMap<>(m);
                    nums.put(f, nf);
                    nums.put(t, nt);
                    if (nums.size() < 2) {
                        nums.put(ServerId.of(f.name().equals("A") ? "B" : "A"), 1L);
                    }
                    return new EoMessage.ReplicaCommit(f, t, c, i, nums);
                });
        return Arbitraries.oneOf(delivery, ack, purge, purgeAck, syncReq, syncRep, replica, dReq, dRep, dSync, upload,
                replicaAck, commit);
    }

    @Property(tries = 600)
    void roundTripsAndIsCanonical(@ForAll("messages") EoMessage m) {
        byte[] b = EoWire.encode(m);
        EoMessage back = EoWire.decode(b);
        assertThat(back).isEqualTo(m);
        assertThat(EoWire.encode(back)).isEqualTo(b);
        assertThat(EoWire.size(m)).isEqualTo(b.length);
    }

    @Property(tries = 150)
    void everyTruncationAndEveryExtraByteIsRefused(@ForAll("messages") EoMessage m, @ForAll byte extra) {
        byte[] b = EoWire.encode(m);
        for (int len = 0; len < b.length; len++) {
            int cut = len;
            assertThatThrownBy(() -> EoWire.decode(b, 0, cut)).as("cut at %d", cut)
                    .isInstanceOf(InvalidMessageException.class).hasMessageContaining("at offset");
        }
        byte[] longer = Arrays.copyOf(b, b.length + 1);
        longer[b.length] = extra;
        assertThatThrownBy(() -> EoWire.decode(longer)).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("field end").hasMessageContaining("1 bytes after the end");
    }

    @Property(tries = 1000)
    void mutatedBytesAreRefusedOrCanonical(@ForAll("messages") EoMessage m, @ForAll @IntRange(max = 1 << 20) int where,
            @ForAll byte value, @ForAll @IntRange(min = 1, max = 3) int flips) {
        byte[] b = EoWire.encode(m);
        for (int f = 0; f < flips; f++) {
            b[(where + 7919 * f) % b.length] ^= (byte) (value | 1 << f);
        }
        decodeIsTotal(b);
    }

    @Property(tries = 2000)
    void randomBytesAreRefusedOrCanonical(@ForAll byte[] tail, @ForAll @IntRange(min = 1, max = 13) int type) {
        byte[] b = new byte[tail.length + 3];
        b[0] = EoWire.MAGIC;
        b[1] = EoWire.VERSION;
        b[2] = (byte) type;
        System.arraycopy(tail, 0, b, 3, tail.length);
        decodeIsTotal(b);
    }

    /** Refused with a named field, or accepted and then canonical; never any other exception. */
    private static void decodeIsTotal(byte[] b) {
        byte[] copy = b.clone();
        EoMessage m;
        try {
            m = EoWire.decode(b);
        } catch (InvalidMessageException e) {
            assertThat(e.field()).isNotBlank();
            assertThat(e.getMessage()).startsWith("field " + e.field() + ": ");
            assertThat(b).as("decoding changes nothing, not even its input").isEqualTo(copy);
            return;
        }
        assertThat(EoWire.encode(m)).as("an accepted byte string is the canonical encoding").isEqualTo(b);
    }

    static Set<Integer> types() {
        return Set.of(EoWire.NOTE_DELIVERY, EoWire.NOTE_ACK, EoWire.PURGE_REQUEST, EoWire.PURGE_ACK, EoWire.SYNC_REQUEST,
                EoWire.SYNC_REPLY, EoWire.REPLICA);
    }
}

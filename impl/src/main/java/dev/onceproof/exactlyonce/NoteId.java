package dev.onceproof.exactlyonce;

/**
 * The id of a note. Strategies 0-2 use {@link Sequenced} ids {@code ServerID.SeqNo} (paper 3.1,
 * "A.3"); Strategy 3 accepts "any type of globally unique identifier" (L127), here {@link Global}.
 * Ids order sequenced before global, then by server and sequence number, so a server's K walks
 * each stream from its lowest number (App. A.2 "foreach i in K").
 *
 * <p>Text form, used in traces, store files and errors: {@code A.3} for a sequenced id, the bare
 * name ({@code n1}) for a global one; {@link #parse} reads both back.
 */
public sealed interface NoteId extends Comparable<NoteId> permits NoteId.Sequenced, NoteId.Global {

    /** The id's text form; {@code parse(text())} gives an equal id. */
    String text();

    static Sequenced sequenced(ServerId server, long seq) {
        return new Sequenced(server, seq);
    }

    static Global global(String name) {
        return new Global(name);
    }

    /** Reads a text form; an error names the text and what is wrong with it. */
    static NoteId parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("note id is null");
        }
        int dot = text.lastIndexOf('.');
        if (dot < 0) {
            return new Global(text);
        }
        String digits = text.substring(dot + 1);
        if (digits.isEmpty() || digits.length() > 18 || !digits.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("note id \"" + text + "\": sequence number \"" + digits
                    + "\" is not a decimal number of 1..18 digits");
        }
        return new Sequenced(new ServerId(text.substring(0, dot)), Long.parseLong(digits));
    }

    @Override
    default int compareTo(NoteId other) {
        if (this instanceof Sequenced a && other instanceof Sequenced b) {
            int byServer = a.server().compareTo(b.server());
            return byServer != 0 ? byServer : Long.compare(a.seq(), b.seq());
        }
        if (this instanceof Global a && other instanceof Global b) {
            return a.name().compareTo(b.name());
        }
        return this instanceof Sequenced ? -1 : 1;
    }

    /**
     * Note {@code server.seq}: the {@code seq}-th note of {@code server}'s stream for one client.
     * Invariant: {@code seq >= 0}. The upper bound is the strategy's (Strategy 2's sequence space W),
     * checked where a message enters a core.
     */
    final class Sequenced implements NoteId {
        private final ServerId server;
        private final long seq;

        public Sequenced(ServerId server, long seq) {
            if (server == null) {
                throw new IllegalArgumentException("note id: server is null");
            }
            if (seq < 0) {
                throw new IllegalArgumentException("note id " + server + "." + seq + ": seq " + seq
                        + " is negative");
            }
            this.server = server;
            this.seq = seq;
        }

        public ServerId server() {
            return server;
        }

        public long seq() {
            return seq;
        }

        @Override
        public String text() {
            return server.name() + "." + seq;
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof Sequenced s && s.seq == seq && s.server.equals(server);
        }

        @Override
        public int hashCode() {
            return server.hashCode() * 31 + Long.hashCode(seq);
        }

        @Override
        public String toString() {
            return text();
        }
    }

    /** A globally unique note id (Strategy 3), for example {@code n1} or {@code A-2026-11-24T01:02}. */
    final class Global implements NoteId {
        private final String name;

        public Global(String name) {
            this.name = Ids.checkName("note id", name);
        }

        public String name() {
            return name;
        }

        @Override
        public String text() {
            return name;
        }

        @Override
        public boolean equals(Object o) {
            return o == this || o instanceof Global g && g.name.equals(name);
        }

        @Override
        public int hashCode() {
            return name.hashCode();
        }

        @Override
        public String toString() {
            return name;
        }
    }
}

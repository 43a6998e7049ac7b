package dev.onceproof.storage;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A journal codec for tests: an operation is a short string (a note id and a change, as an
 * exactly-once store would journal), the state is the list of every operation applied so far.
 */
final class Notes implements JournalCodec<List<String>, String> {

    static final Notes CODEC = new Notes();
    static final List<String> EMPTY = List.of();

    static List<String> apply(List<String> state, String op) {
        List<String> next = new ArrayList<>(state);
        next.add(op);
        return next;
    }

    @Override
    public byte[] encodeOperation(String operation) {
        return operation.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String decodeOperation(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] encodeCheckpoint(List<String> state) {
        return String.join("\n", state).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public List<String> decodeCheckpoint(byte[] bytes) {
        return bytes.length == 0 ? List.of() : Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\n", -1));
    }

    /** The state {@link Journal#recovered()} gives. */
    static List<String> recoveredState(Journal<List<String>, String> journal) {
        return journal.recovered().state(EMPTY, Notes::apply);
    }
}

package dev.onceproof.conformance.crash;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientOrdering;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S1Client;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.storage.FileSnapshotStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.TreeMap;

/**
 * The exactly-once client as its own JVM, for the crash test: a Strategy 1 client core over a
 * {@link FileSnapshotStore}, whose application state is the journal of processings (one id per
 * line, inside the same snapshot as R, so accept and record are one write).
 *
 * <p>Protocol on stdin/stdout, one line each: the driver writes {@code NOTE <server> <seq>}; the
 * client answers {@code ACK <server>.<seq>} when the step acknowledges (after the record is durable,
 * unless {@code --ack-first}, the negative control) and {@code NOACK <id> <verdict>} otherwise. It
 * prints {@code ready} once it has loaded its store.
 *
 * <p>Usage: {@code EoClientMain <store file> [--ack-first]}.
 */
public final class EoClientMain {

    static final ClientId CLIENT = ClientId.of("c");

    private EoClientMain() {
    }

    private static final long SLOW_DISK_MILLIS = 20;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        ClientOrdering ordering = args.length > 1 && args[1].equals("--ack-first")
                ? ClientOrdering.ACK_THEN_RECORD : ClientOrdering.RECORD_THEN_ACK;
        ClientStore store = new ClientStore(new FileSnapshotStore(file), ClientStore.journal());
        ClientStableState stored = store.stableOr(new ClientStableState.Streams(new TreeMap<>()));
        S1Client client = new S1Client(CLIENT, (ClientStableState.Streams) stored, ordering);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        out.println("ready");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split(" ");
            if (f.length != 3 || !f[0].equals("NOTE")) {
                System.err.println("eo client: ignoring malformed line \"" + line + "\"");
                continue;
            }
            ServerId server = ServerId.of(f[1]);
            NoteId id = NoteId.sequenced(server, Long.parseLong(f[2]));
            ClientStep step = client.receiveNote(new EoMessage.NoteDelivery(server, CLIENT, new Note(id, CLIENT, "")));
            for (ClientEffect effect : step.effects()) {
                if (effect instanceof ClientEffect.Record r) {
                    if (ordering == ClientOrdering.ACK_THEN_RECORD) {
                        // The negative control's window between the ack and the durable record is as
                        // long as the write: on a fast disk or tmpfs microseconds, so a kill would
                        // rarely land in it and the control would pass by luck (seen on an idle CI
                        // machine). A slow disk's 20 ms makes the kill land in it as it would there;
                        // the right order needs no such help, since it has no window at all.
                        Thread.sleep(SLOW_DISK_MILLIS);
                    }
                    store.commit(r);
                } else {
                    out.println("ACK " + id.text());
                    out.flush();
                }
            }
            if (!step.acknowledges()) {
                out.println("NOACK " + id.text() + " " + step.verdict().specName());
                out.flush();
            }
        }
    }
}

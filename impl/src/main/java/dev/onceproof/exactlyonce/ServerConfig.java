package dev.onceproof.exactlyonce;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Who a server core is and who its peers are, for one client: {@code self}; {@code client}, whose
 * notes the core handles (one core per server and client, Z21); {@code servers}, every server with
 * self included (the spec's constant {@code Servers}); {@code te}, the maximum message lifetime
 * T_e in clock ticks (3.2, L95).
 *
 * <p>A final class rather than a record, for Lincheck (see {@link Note}).
 */
public final class ServerConfig {

    private final ServerId self;
    private final ClientId client;
    private final SortedSet<ServerId> servers;
    /** {@code servers} without {@code self}, built once: cores ask for it at every note and sync. */
    private final SortedSet<ServerId> others;
    private final long te;

    public ServerConfig(ServerId self, ClientId client, SortedSet<ServerId> servers, long te) {
        this.self = Objects.requireNonNull(self, "self");
        this.client = Objects.requireNonNull(client, "client");
        this.servers = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(servers, "servers")));
        if (!this.servers.contains(self)) {
            throw new IllegalArgumentException("servers " + servers + " do not include self " + self);
        }
        if (te < 0) {
            throw new IllegalArgumentException("T_e = " + te + " is negative");
        }
        this.te = te;
        TreeSet<ServerId> o = new TreeSet<>(this.servers);
        o.remove(self);
        this.others = Collections.unmodifiableSortedSet(o);
    }

    public ServerId self() {
        return self;
    }

    public ClientId client() {
        return client;
    }

    public SortedSet<ServerId> servers() {
        return servers;
    }

    public long te() {
        return te;
    }

    /** The other servers, in order (unmodifiable). */
    public SortedSet<ServerId> others() {
        return others;
    }

    void checkFromPeer(String field, ServerId from) {
        if (from.equals(self) || !servers.contains(from)) {
            throw new InvalidMessageException(field, from + " is not one of the other servers " + others());
        }
    }

    void checkToSelf(ServerId to) {
        if (!to.equals(self)) {
            throw new InvalidMessageException("to", "message is for server " + to + ", this is " + self);
        }
    }

    /**
     * A sync reply answers one of our rounds: one above the last we started is forged or corrupt,
     * and taking it would confirm for Strategy 2 what no server said after the note was numbered.
     */
    void checkReplyRound(long replyRound, long started) {
        if (replyRound > started) {
            throw new InvalidMessageException("round", "reply to round " + replyRound + ", but " + self
                    + " has started only " + started);
        }
    }

    void checkClient(String field, ClientId c) {
        if (!c.equals(client)) {
            throw new InvalidMessageException(field, "client " + c + ", this core serves client " + client);
        }
    }
}

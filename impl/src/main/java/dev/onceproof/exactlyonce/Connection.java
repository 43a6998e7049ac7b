package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.Optional;

/** A client's volatile connection ({@code conn}): one server at a time, lost in a crash. */
abstract class Connection implements ClientCore {

    protected final ClientId self;
    private ServerId conn;

    Connection(ClientId self) {
        this.self = Objects.requireNonNull(self, "self");
    }

    @Override
    public final ClientId id() {
        return self;
    }

    @Override
    public final void connect(ServerId s) {
        conn = Objects.requireNonNull(s, "server");
    }

    @Override
    public final void disconnect() {
        conn = null;
    }

    @Override
    public final void crash() {
        conn = null;
    }

    @Override
    public final Optional<ServerId> conn() {
        return Optional.ofNullable(conn);
    }
}

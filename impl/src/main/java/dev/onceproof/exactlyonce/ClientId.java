package dev.onceproof.exactlyonce;

/**
 * A client (the paper's single wireless client {@code c}; the cores are keyed by client from the
 * start, notes Z21). Final class rather than record for Lincheck (see {@link ServerId}).
 */
public final class ClientId implements Comparable<ClientId> {

    private final String name;

    public ClientId(String name) {
        this.name = Ids.checkName("client id", name);
    }

    public static ClientId of(String name) {
        return new ClientId(name);
    }

    public String name() {
        return name;
    }

    @Override
    public int compareTo(ClientId other) {
        return name.compareTo(other.name);
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof ClientId s && s.name.equals(name);
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

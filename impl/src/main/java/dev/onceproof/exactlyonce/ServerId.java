package dev.onceproof.exactlyonce;

/**
 * A messaging server ("A", "B" in the paper's examples and in the specs' traces). In Strategies 1
 * and 2 it is also the name of a sequence stream: note {@code A.3} was numbered by server A.
 *
 * <p>A final class with value semantics rather than a record: Lincheck 2.39 cannot take field
 * offsets of record classes (JetBrains/lincheck#402), and server ids are inside the Strategy 3
 * state that Lincheck explores.
 */
public final class ServerId implements Comparable<ServerId> {

    private final String name;

    public ServerId(String name) {
        this.name = Ids.checkName("server id", name);
    }

    public static ServerId of(String name) {
        return new ServerId(name);
    }

    public String name() {
        return name;
    }

    @Override
    public int compareTo(ServerId other) {
        return name.compareTo(other.name);
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof ServerId s && s.name.equals(name);
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

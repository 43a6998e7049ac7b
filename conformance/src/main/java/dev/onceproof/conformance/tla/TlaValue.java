package dev.onceproof.conformance.tla;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A value as TLC prints it. Only the shapes that cross into traces (specs/CONVENTIONS.md) plus
 * model values, which are parsed so that an error can name them instead of failing on syntax.
 * Records and functions keep TLC's print order; JSON rendering sorts keys.
 */
public sealed interface TlaValue {

    record Int(long value) implements TlaValue { }

    record Str(String value) implements TlaValue {
        public Str {
            Objects.requireNonNull(value, "value");
        }
    }

    record Bool(boolean value) implements TlaValue { }

    /** {@code [a |-> 1, b |-> 2]}: also how TLC prints a function whose domain is a set of strings. */
    record Record(List<Map.Entry<String, TlaValue>> fields) implements TlaValue {
        public Record {
            fields = List.copyOf(fields);
        }
    }

    /** {@code <<1, 2>>}: also how TLC prints the empty function. */
    record Seq(List<TlaValue> elements) implements TlaValue {
        public Seq {
            elements = List.copyOf(elements);
        }
    }

    /** {@code {1, 2}} in TLC's (normalized) order. */
    record Set(List<TlaValue> elements) implements TlaValue {
        public Set {
            elements = List.copyOf(elements);
        }
    }

    /** {@code (k1 :> v1 @@ k2 :> v2)}: a function whose domain is neither strings nor 1..n. */
    record Function(List<Map.Entry<TlaValue, TlaValue>> pairs) implements TlaValue {
        public Function {
            pairs = List.copyOf(pairs);
        }
    }

    /** A bare identifier such as {@code c1}: a model value, which the conventions rule out of traces. */
    record ModelValue(String name) implements TlaValue { }
}

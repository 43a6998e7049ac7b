package dev.onceproof.storage;

/**
 * How a {@link Journal}'s user turns its operations and its checkpointed state into bytes and back.
 * The journal never looks inside: it stores the bytes with a length, a sequence number and a CRC.
 *
 * <p>Contract: {@code decode(encode(x))} equals {@code x}. A decode method throws (any
 * {@link RuntimeException}) on bytes it cannot read; the journal reports that as corruption of the
 * file and offset the bytes came from, since a record that passed its CRC but does not decode was
 * written by a different codec or a broken one.
 *
 * @param <S> the checkpointed state (a core's durable state)
 * @param <O> an operation (the change one step makes to that state)
 */
public interface JournalCodec<S, O> {

    byte[] encodeOperation(O operation);

    O decodeOperation(byte[] bytes);

    byte[] encodeCheckpoint(S state);

    S decodeCheckpoint(byte[] bytes);
}

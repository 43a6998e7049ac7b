---------------------- MODULE MCExactlyOnceS3MsgRound ----------------------
(* Bounded models of ExactlyOnceS3MsgRound; the cfg sets the bounds.        *)
EXTENDS ExactlyOnceS3MsgRound

CONSTANTS MaxSyncMsgs, MaxLevel

MCNoteIds == <<"n1", "n2", "n3">>

SyncBound == Cardinality(snet) <= MaxSyncMsgs

\* The full graph of two notes created at two servers with the round's
\* messages is too large for ci (over a million states at depth 27 and
\* growing), so the models bound the behaviours' length: every behaviour
\* of at most MaxLevel states is checked (bounded model checking).
LevelBound == TLCGet("level") < MaxLevel
=============================================================================

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

\* The control's scenario (ACTION_CONSTRAINTs, issue 18's budget; only for
\* exactlyonce-control-s3msg-round-alone, whose violation found narrowed is
\* a behaviour of the unnarrowed model): the client connects only to A, and
\* only B starts syncs.
ClientAtAOnly == lastAction'.name = "Connect" => lastAction'.server = "A"
SyncsFromBOnly == lastAction'.name = "StartSync" => lastAction'.server = "B"
=============================================================================

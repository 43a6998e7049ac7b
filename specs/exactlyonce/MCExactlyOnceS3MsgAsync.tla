---------------------- MODULE MCExactlyOnceS3MsgAsync ----------------------
(* Bounded model of ExactlyOnceS3MsgAsync; the cfg sets the bounds.         *)
EXTENDS ExactlyOnceS3MsgAsync

CONSTANT MaxSyncMsgs

MCNoteIds == <<"n1", "n2", "n3">>

SyncBound == Cardinality(snet) <= MaxSyncMsgs
=============================================================================

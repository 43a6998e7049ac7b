----------------------- MODULE MutS2MsgGateIgnoresAcks -----------------------
(* Mutant of ExactlyOnceS2Msg's MayUse: a number is issued again while an   *)
(* ack of its old incarnation is still on the way (ExactlyOnceS2's guard,   *)
(* which reads note copies only).  TLC's trace: the client processes A.0    *)
(* from A, whose ack waits in the network; the client moves to B, which    *)
(* delivers A.1; the syncs confirm A.0 and A.1 gone and A issues A.0 again; *)
(* the old ack reaches A, whose Deliver of the old A.0 is still pending,   *)
(* and A lists wire id A.0 removed (the core's receiveAck would also drop  *)
(* the new A.0 from its K, keyed by wire id); a sync carries the removal   *)
(* to B, whose seen covers the new A.0, and B drops it unprocessed.        *)
EXTENDS MCExactlyOnceS2Msg

MutCreateNext == \E x \in Origins : CreateNoteWith(x, MayUseWith(x, FALSE), DropRemoved, ClearConf)
MutSpec == Init /\ [][NextWith(MutCreateNext, SyncNext)]_vars
=============================================================================

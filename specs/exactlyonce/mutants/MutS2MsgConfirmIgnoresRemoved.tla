-------------------- MODULE MutS2MsgConfirmIgnoresRemoved --------------------
(* Mutant of ExactlyOnceS2Msg's rule "confirm": a used number counts as    *)
(* confirmed gone once it is missing from a reply to a later round, whether *)
(* or not the replier lists it removed (S2Server.confirm without           *)
(* reply.removed().contains(id)).  Expected to survive at the spec level:  *)
(* under atomic replication a note issued before the request is in the     *)
(* replier's K until it is removed, so "missing" already means "removed";  *)
(* the test guards the core's replica in flight, which the spec does not   *)
(* model (S2Server.confirm's comment).                                     *)
EXTENDS MCExactlyOnceS2Msg

NoRemovedTest(x, m, k) ==
    LET id == [server |-> x, seq |-> k] IN
    /\ id \notin m.k
    /\ \/ issued[x][k] = Never
       \/ m.round > issued[x][k]

MutSyncNext == \E m \in snet : HandleSync(m) \/ ReceiveSyncReplyWith(m, TRUE, NoRemovedTest)
MutSpec == Init /\ [][NextWith(CreateNext, MutSyncNext)]_vars
=============================================================================

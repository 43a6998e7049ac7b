----------------------- MODULE MutS2MsgConfirmIgnoresK -----------------------
(* Mutant of ExactlyOnceS2Msg's rule "confirm": the reply's K is not read  *)
(* (S2Server.confirm without !reply.k().contains(id)).  Expected to        *)
(* survive: a server never holds an id it lists removed (the removal takes *)
(* it out of K, a new incarnation drops the removal), so the round and      *)
(* removed tests imply the K test.                                         *)
EXTENDS MCExactlyOnceS2Msg

NoKTest(x, m, k) ==
    LET id == [server |-> x, seq |-> k] IN
    \/ issued[x][k] = Never
    \/ m.round > issued[x][k] /\ id \in m.removed

MutSyncNext == \E m \in snet : HandleSync(m) \/ ReceiveSyncReplyWith(m, TRUE, NoKTest)
MutSpec == Init /\ [][NextWith(CreateNext, MutSyncNext)]_vars
=============================================================================

----------------------- MODULE MutS2MsgConfirmAnyRound -----------------------
(* Mutant of ExactlyOnceS2Msg's rule "confirm": the reply's round is not    *)
(* compared with the round the number was issued in (S2Server.confirm      *)
(* without reply.round() > issuedAt; notes M2-d).  B's reply to a request  *)
(* A sent before it issued A.0 again lists A.0 removed (the first one) and *)
(* its K without A.0; it arrives after the reuse and confirms the new A.0  *)
(* gone although B holds it (ConfTruthful).                                *)
EXTENDS MCExactlyOnceS2Msg

AnyRoundTest(x, m, k) ==
    LET id == [server |-> x, seq |-> k] IN
    /\ id \notin m.k
    /\ \/ issued[x][k] = Never
       \/ id \in m.removed

MutSyncNext == \E m \in snet : HandleSync(m) \/ ReceiveSyncReplyWith(m, TRUE, AnyRoundTest)
MutSpec == Init /\ [][NextWith(CreateNext, MutSyncNext)]_vars
=============================================================================

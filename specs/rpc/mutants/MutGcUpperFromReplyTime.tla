------------------------ MODULE MutGcUpperFromReplyTime ------------------------
(* Mutant: garbage collection raises upper to the entry's reply time instead *)
(* of its call timestamp, against 3.1: "G.upper is set using the client's   *)
(* call time, not the reply time, since our only concern is recognizing     *)
(* duplicates of the call."  A call stamped above the server's clock (a fast *)
(* client clock, or a second call within one tick) is replied at an earlier *)
(* time; after collection a duplicate of it is above upper and runs again.  *)
(* Expected: AtMostOnceExecution.                                           *)
EXTENDS MCRpc

CollectFromReplyTime(c) ==
    /\ MayCollect(c)
    /\ CollectGarbageWith(c, Max(upper[ClassOf[c]], rpc[c].replyTime))

MutNext ==
    \/ \E c \in Conns : ClientNext(c) \/ ClientReceiveNext(c)
    \/ ReceiveCallNext
    \/ ReplyAckNext
    \/ CompleteNext
    \/ \E c \in DOMAIN rpc : CollectFromReplyTime(c)
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ EnvNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

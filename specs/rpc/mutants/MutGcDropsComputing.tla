--------------------------- MODULE MutGcDropsComputing ---------------------------
(* Mutant: garbage collection forgets Fig. 3-1 GC rule 1 ("If state is      *)
(* COMPUTING, do nothing") and treats a COMPUTING entry like any other: the *)
(* natural slip of reusing SCMP's collection rule for the RPC table.  Upper *)
(* still covers the call, so it is not run twice, but a retransmission of a *)
(* call still being computed is now rejected and its reply is lost.         *)
(* Expected: NoRejectWhileComputing.                                        *)
EXTENDS MCRpc

CollectAnyState(c) ==
    /\ rpc[c].replyTime < clock - RhoPrime(c)
    /\ CollectGarbageWith(c, Max(upper[ClassOf[c]], ct[c]))

MutNext ==
    \/ \E c \in Conns : ClientNext(c) \/ ClientReceiveNext(c)
    \/ ReceiveCallNext
    \/ ReplyAckNext
    \/ CompleteNext
    \/ \E c \in DOMAIN rpc : CollectAnyState(c)
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ EnvNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

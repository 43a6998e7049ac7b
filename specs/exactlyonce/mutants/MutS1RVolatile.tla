---------------------------- MODULE MutS1RVolatile ----------------------------
(* Mutant (notes M1-b): the client keeps R in volatile memory, so a crash   *)
(* resets it to 0 (L77: "Array R is kept in stable storage so it survives  *)
(* client failures").  Example 1 (L81-85) with R lost: A delivers A.1 and  *)
(* drops it from K_A, the client crashes, and B, not yet synced, sends     *)
(* A.1, which the client now expects again and processes twice.            *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS1

\* The one change (ExactlyOnceS1's ClientCrash leaves R unchanged).
VolatileCrash ==
    /\ ClientCrashBase
    /\ R' = [x \in Servers |-> 0]
    /\ UNCHANGED <<ctr, K, sess>>

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : Sync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ Disconnect \/ VolatileCrash \/ \E m \in net : LoseMsg(m)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

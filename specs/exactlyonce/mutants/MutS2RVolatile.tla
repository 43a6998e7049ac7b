---------------------------- MODULE MutS2RVolatile ----------------------------
(* Mutant (notes M1-b, for Strategy 2): the client keeps R in volatile      *)
(* memory, so a crash resets it to its initial W-1 (L77, L113: S2 keeps    *)
(* Strategy 1's stable R).  A delivers A.0, the client crashes, and B, not *)
(* yet synced, sends A.0, which the client expects again ((W-1)+1 mod W = *)
(* 0) and processes twice.  Wrap-around does not help: it only makes ids  *)
(* recur on purpose.  Expected: NoDuplicateDelivery.                       *)
EXTENDS MCExactlyOnceS2

\* The one change (ExactlyOnceS2's ClientCrash leaves R unchanged).
VolatileCrash ==
    /\ ClientCrashBase
    /\ R' = [x \in Servers |-> W - 1]
    /\ UNCHANGED <<ctr, K, conf, sess>>

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers : ServerNext(s) \/ ServerCrash(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ Disconnect \/ VolatileCrash \/ \E m \in net : LoseMsg(m)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

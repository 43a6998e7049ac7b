-------------------- MODULE MutS2ConditionOnReuseOnly --------------------
(* Mutant: Condition 1 read literally, applied only when x.s itself is    *)
(* reused (ctr >= W), not when the first use of x.(W-1) makes the client  *)
(* expect x.0 again.  A lingering copy of the old x.0 is then accepted a   *)
(* second time.  Expected: NoDuplicateDelivery.  (ExactlyOnceS2 guards     *)
(* every generation whose successor id was used before.)                   *)
EXTENDS MCExactlyOnceS2

MutCreateNext == \E x \in Origins : CreateNoteWith(x, ctr[x] < W \/ Condition1(x, (ctr[x] + 1) % W))

MutNext ==
    \/ MutCreateNext
    \/ ConnectNext
    \/ \E s \in Servers : ServerNext(s) \/ ServerCrash(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

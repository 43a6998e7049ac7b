-------------------- MODULE MutS2ConfirmSameSeq --------------------
(* Mutant, the second scenario of 3.2 (L105): A reuses x.s once x.s itself *)
(* is gone everywhere (confirmed by every server, not in its own K, no     *)
(* copy left) but x.(s+1) may still be alive.  "When the client receives   *)
(* the new m2 with A.5 there is no problem, but R[A] is advanced to 6.     *)
(* This makes it possible for c to receive the old m3 again".              *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS2

\* The first round (ctr < W) keeps ExactlyOnceS2's guard; only a reuse is weakened.
MutMayUse(x) == IF ctr[x] < W THEN MayUse(x)
               ELSE Condition1(x, ctr[x] % W)

MutCreateNext == \E x \in Origins : CreateNoteWith(x, MutMayUse(x))

MutNext ==
    \/ MutCreateNext
    \/ ConnectNext
    \/ \E s \in Servers : ServerNext(s) \/ ServerCrash(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

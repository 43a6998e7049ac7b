-------------------- MODULE MutS2ReuseWithoutTe --------------------
(* Mutant: Condition 1 without the T_e wait.  A reuses x.s as soon as     *)
(* every server confirmed x.(s+1) gone from its K, while a copy of the old *)
(* x.(s+1) still travels in the network; after the new x.s the client     *)
(* expects x.(s+1) and takes that copy again.  Expected: NoDuplicateDelivery. *)
EXTENDS MCExactlyOnceS2

\* The first round (ctr < W) keeps ExactlyOnceS2's guard; only a reuse is weakened.
MutMayUse(x) == IF ctr[x] < W THEN MayUse(x)
               ELSE /\ \A y \in Servers \ {x} : ((ctr[x] + 1) % W) \in conf[x][y]
                                 /\ ~HasSeq(x, x, (ctr[x] + 1) % W)

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

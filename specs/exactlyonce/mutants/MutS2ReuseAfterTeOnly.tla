-------------------- MODULE MutS2ReuseAfterTeOnly --------------------
(* Mutant, Example 2 (L99-103): A reuses a seq as soon as T_e has passed  *)
(* since the last message bearing it (no copy of it left in the network),  *)
(* without any confirmation from the other servers.  B, whose sync lags,  *)
(* still holds the old A.0 and delivers it when the client expects the new *)
(* one: "c will accept m1, thus resulting in duplicate delivery".          *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS2

\* The first round (ctr < W) keeps ExactlyOnceS2's guard; only a reuse is weakened.
MutMayUse(x) == IF ctr[x] < W THEN MayUse(x)
               ELSE ~CopyOfSeq(x, ctr[x] % W)

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

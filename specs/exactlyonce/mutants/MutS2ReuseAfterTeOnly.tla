-------------------- MODULE MutS2ReuseAfterTeOnly --------------------
(* Mutant, Example 2 (L99-103): server x decides a reuse from what it can *)
(* see itself, the networking rule of L95 ("T_e time has passed since a    *)
(* message bearing this sequence number was sent") plus its own K, and     *)
(* never asks the other servers.  Condition 1 (L107) differs from it by    *)
(* exactly the "confirmation from all other servers": "a note may linger   *)
(* not just in the network, but also at some other server" (L97).          *)
(*                                                                         *)
(* The guard is applied to every generation, as ExactlyOnceS2 applies      *)
(* Condition 1: x.s and its successor x.(s+1) must be out of x's K and out *)
(* of the network.  So no copy lingers in the network and none at x; the   *)
(* only place left is B, whose sync lags: the client, having accepted the  *)
(* stream up to x.(s-1), expects x.s again, connects to B, and B delivers  *)
(* the old x.s (m1): "Because A.5 is indeed the expected id, c will accept *)
(* m1, thus resulting in duplicate delivery".                              *)
(*                                                                         *)
(* TLC's shortest trace stops before the new x.s (m2) is created: the      *)
(* duplicate needs only the state Example 2 sets up (R[A] expects A.5, B   *)
(* still holds m1), and the local rule is what let A generate the note     *)
(* that brought the client there.  m2's non-delivery, Example 2's second   *)
(* harm, is not what this mutant checks.                                   *)
(* Distinct from MutS2ConfirmSameSeq (L105: the old successor lingers in   *)
(* the network after a reuse, which this guard forbids) and from           *)
(* MutS2ConditionOnReuseOnly (a lingering network copy in the first round, *)
(* also forbidden here).  Expected: NoDuplicateDelivery.                   *)
EXTENDS MCExactlyOnceS2

\* Gone from x's own K and from the network (T_e passed): x's local view.
LocallyGone(x, k) == ~HasSeq(x, x, k) /\ ~CopyOfSeq(x, k)

MutMayUse(x) == LocallyGone(x, ctr[x] % W) /\ LocallyGone(x, (ctr[x] + 1) % W)

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

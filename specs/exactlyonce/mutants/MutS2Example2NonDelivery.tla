------------------ MODULE MutS2Example2NonDelivery ------------------
(* Mutant, Example 2's second harm (L103): "when c connects to A later, it *)
(* will not accept m2 because it thinks that it has seen the sequence      *)
(* number before, thus resulting in m2's non-delivery."                    *)
(*                                                                         *)
(* The same broken reuse rule as MutS2ReuseAfterTeOnly (x decides from its *)
(* own K and the network alone, without the other servers' confirmations), *)
(* now under ExactlyOnceS2's fairness: B, whose sync lags, delivers the   *)
(* old x.s (m1) again, the client's R[x] becomes s, and the new x.s (m2)  *)
(* is discarded as seen, by A and by B alike, for ever.  MutS2ReuseAfterTeOnly *)
(* checks the duplicate; this one the non-delivery.  The unmodified spec  *)
(* passes EventualDelivery at the same bounds (exactlyonce-s2-liveness).   *)
(* Expected: EventualDelivery.                                             *)
EXTENDS MutS2ReuseAfterTeOnly

MutFairSpec == MutSpec /\ Fairness
=============================================================================

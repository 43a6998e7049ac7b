--------------------- MODULE MutS3TimedReconfirmEarly ---------------------
(* Mutant: a restarted server dates its reconfirmation T_e before the      *)
(* restart (as if the note had been confirmed before the crash and the     *)
(* wait had run meanwhile; the untimed ExactlyOnceS3 would authorize at    *)
(* once), so its gate opens at the restart.  A copy of the note sent just  *)
(* before the crash is still in the network; the purge lets the client     *)
(* forget the note's slot, and the copy is processed again.  The cfg sets  *)
(* `ReconfirmedAt <- Early`.  Expected: NoDuplicateDelivery.               *)
EXTENDS MCExactlyOnceS3Timed

Early == IF now >= Te THEN now - Te ELSE 0
=============================================================================

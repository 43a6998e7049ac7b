------------------------ MODULE MutS4ReplyWhileUnknown ------------------------
(* Mutant (issue 20 item 2; L185, L193; the Lincheck control               *)
(* ReplyAtOnceLincheckTest): a server answers "Request for list D" while   *)
(* one of its aDeliver outcomes is unknown.  A calls aDeliver(n1) and the  *)
(* client processes n1; before the outcome reaches A, the client moves to *)
(* B, whose gather asks A; A replies with D_A without n1, B ends its       *)
(* gather and delivers n1 again.  The one change is the cfg's             *)
(* ReplyMayGo <- AtOnce.  Expected: NoDuplicateDelivery.                   *)
EXTENDS MCExactlyOnceS4Outcome
=============================================================================

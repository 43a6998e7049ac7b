-------------------- MODULE MCExactlyOnceS4Irrelevant --------------------
(* L252's irrelevant partition as the paper tells it: "the client first    *)
(* connects to server A then to B, but it has never connected to C.  If B  *)
(* cannot talk to C (but can talk to A), it can still go ahead and deliver *)
(* notes to the client" (Strategy 6), where Strategies 4 and 5 block       *)
(* (L238).  The cfg cuts C off (Cut = {"C"}) or not (the control).         *)
(*                                                                         *)
(* ConnectAThenB (an ACTION_CONSTRAINT) is the scenario: the first        *)
(* connection is to A, the second to B, and there is no third.  The trap   *)
(* BNeverDelivers says B hands over no note; B must then learn A's D (A is *)
(* relevant) and may not need C's.  ExactlyOnceGather's trap               *)
(* NeverDeliversWhileCut cannot tell this apart: S6 refutes it at the      *)
(* client's first connection, before any move.                             *)
EXTENDS MCExactlyOnceS4

ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"

\* B, the client's second server, hands over a note.
BDelivers == lastAction.name = "ADeliverOK" /\ lastAction.server = "B"
BNeverDelivers == ~BDelivers
=============================================================================

------------------------ MODULE MutS6MarginNoSkew ------------------------
(* Mutant (issue 20 item 3; notes M6-e, Z18; L219 "a bounded maximum      *)
(* clock drift ... can be added to the appropriate parameters"): the      *)
(* history margin leaves out the skew allowance that GatherConfig's       *)
(* historyMargin() adds (2*skew), so a peer's stamp is compared with the  *)
(* client's end time as if the clocks agreed.  A's clock runs one tick    *)
(* ahead of the client's.  A pushes D_A without n1 at true time 0 (stamp  *)
(* 1) before the client connects, then delivers n1; the client leaves at  *)
(* 0 and writes H(A) = 0.  At B, A's sync (stamp 1) is later than H(A),   *)
(* so B does not pull from A and delivers n1 again.  The one change is    *)
(* the cfg's HistoryMargin <- MarginWithoutSkew.                           *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS6

MarginWithoutSkew == Te
\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs) to the
\* counterexample's faults and connection order; a violation found narrowed
\* is a behaviour of the unnarrowed spec.
OnlyDisconnect == faults' > faults => lastAction'.name = "Disconnect"

ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================

------------------------- MODULE MCExactlyOnceS6LostH -------------------------
(* L254: "In the event that the client loses its information, the servers  *)
(* can always perform a full synchronization among themselves, thereby     *)
(* still guaranteeing relaxed exactly-once semantics."  The run that       *)
(* sentence is about: A hands over a note, the client loses H (ClientLoseH, *)
(* detectably: every entry Unknown, Z17) and moves on, and the second      *)
(* server B, told nothing, gathers D from every other server and learns    *)
(* the note A handed over.  The trap NoFullPullAtB is refuted (a           *)
(* reachability check: the run occurs at the bounds of                     *)
(* MCExactlyOnceS6SafetyTwoFaults.cfg, where the unmodified spec passes    *)
(* NoDuplicateDelivery and MutS6LostHAsNever, reading the loss as "never   *)
(* connected", does not).                                                  *)
EXTENDS MCExactlyOnceS6

\* B ends a gather on a connection made after the history was lost (the
\* loss sets every entry Unknown; H(B) = Open was written by the connection
\* to B after it), having merged A's D, which held a note the client
\* processed (the gather's `common` is K[B] intersected with the replies' D).
FullPullAtB ==
    /\ lastAction.name = "EndGather"
    /\ lastAction.server = "B"
    /\ H["A"] = Unknown /\ H["B"] = Open
    /\ "A" \in sess["B"].replied
    /\ \E i \in sess["B"].common : Processed(i)
NoFullPullAtB == ~FullPullAtB
=============================================================================

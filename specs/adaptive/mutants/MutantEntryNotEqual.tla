------------------------ MODULE MutantEntryNotEqual -------------------------
(* Mutant: with an entry present the server rejects only an exact copy     *)
(* ("stamp # CT[i]" instead of "stamp > CT[i]", Fig. 1), so a message sent *)
(* before the last accepted one gets through.  Duplicates are still caught; *)
(* TLC must report NoOutOfOrderAccept.                                      *)
EXTENDS MCAdaptive

VerdictNotEqual(m) ==
    IF m.conn \in DOMAIN ct
    THEN IF m.ts # ct[m.conn] THEN "accepted" ELSE "duplicate"
    ELSE IF m.ts > upper THEN "accepted" ELSE "duplicate"

MutantNext == EnvNext \/ (\E m \in net : ReceiveWith(m, VerdictNotEqual(m))) \/ GcNext
MutantSpec == Init /\ [][MutantNext]_vars
=============================================================================

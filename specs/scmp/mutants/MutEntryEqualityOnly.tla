------------------------ MODULE MutEntryEqualityOnly ------------------------
(* Mutant: with a table entry, a message is flagged a duplicate only if   *)
(* its timestamp equals the entry (rule 2a of Fig. 2-1 / Fig. 2-2 says    *)
(* "m.ts <= G.CT[m.conn].ts").  An older message of the connection that   *)
(* arrives after a newer one is then accepted out of order.               *)
(* Expected: NoOutOfOrderAccept is violated.                               *)
EXTENDS MCScmp

TableVerdictEqualityOnly(m) ==
    IF m.conn \in DOMAIN ct
    THEN IF m.ts = ct[m.conn] THEN "duplicate" ELSE "accepted"
    ELSE TableVerdict(m)

ReceiveEqualityOnly(m) ==
    ReceiveWith(m, IF recovering THEN "recovering"
                   ELSE IF TooEarly(m) THEN "tooEarly"
                   ELSE TableVerdictEqualityOnly(m))

MutNext ==
    \/ EnvNext
    \/ \E m \in net : ReceiveEqualityOnly(m)
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

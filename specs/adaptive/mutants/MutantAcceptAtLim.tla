------------------------- MODULE MutantAcceptAtLim --------------------------
(* Mutant: the receive test uses "stamp >= lim_i" instead of "stamp >      *)
(* lim_i" (Fig. 1).  Theorem 2's proof needs the strict test: after an     *)
(* acceptance lim_i equals the accepted timestamp, and only "stamp > lim_i" *)
(* rejects its copy.  TLC must report NoDuplicateAccepted.                  *)
EXTENDS MCAdaptive

VerdictAtLim(m) == IF m.ts >= Lim(m.conn) THEN "accepted" ELSE "duplicate"

MutantNext == EnvNext \/ (\E m \in net : ReceiveWith(m, VerdictAtLim(m))) \/ GcNext
MutantSpec == Init /\ [][MutantNext]_vars
=============================================================================

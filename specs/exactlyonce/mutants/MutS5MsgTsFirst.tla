-------------------------- MODULE MutS5MsgTsFirst --------------------------
(* Mutant: recvPeerSync's TS merge as a step of its own, before the purge   *)
(* and the D merge (ExactlyOnceTimedMsg: the order within the one step     *)
(* cannot matter, the split can).  A delivers n1, the client disconnects,  *)
(* A's periodic DSync (D = {n1}, sent at time 1) raises TS[B][A] at B   *)
(* but its D is not merged yet; the client connects to B T_r later, B     *)
(* finds A fresh, pulls nothing and delivers n1 again.                     *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS5Msg

\* The first half: TS merged; the DSync stays on the way with its stamp
\* spent (Never), so its later receipt (RecvPeerSync) merges D and purges
\* and its TS merge is a no-op.
RecvTsOnly(r, m) ==
    /\ m \in pnet
    /\ m.to = r
    /\ m.ts # Never
    /\ Link(m.from, r)
    /\ MergeTs(r, m.from, m.ts)
    /\ pnet' = (pnet \ {m}) \cup {[m EXCEPT !.ts = Never]}
    /\ lastAction' = [RecvPeerSyncAction(r, m) EXCEPT !.name = "RecvPeerSyncTs"]
    /\ UNCHANGED <<baseVars, gatherVars, now, lastEnd, seen, entered, reportVars>>

MutSpec == MsgInit /\ [][MsgNextWith(LAMBDA r, m : RecvTsOnly(r, m) \/ RecvPeerSync(r, m))]_allVars

=============================================================================

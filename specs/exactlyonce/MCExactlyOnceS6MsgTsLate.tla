---------------------- MODULE MCExactlyOnceS6MsgTsLate ----------------------
(* recvPeerSync's TS merge moved AFTER the purge, as a later step of its    *)
(* own (brief item 3; ExactlyOnceTimedMsg argues why the order within the  *)
(* one step cannot matter).  This variant is expected to PASS: a TS raised  *)
(* late only makes the sender look older than it is, so a session pulls    *)
(* from it more often, never less; its D is already merged.  Its mirror,   *)
(* the TS merge as an EARLIER step of its own (MutS6MsgTsFirst), is refuted  *)
(* at the same bounds.                                                     *)
EXTENDS MCExactlyOnceS6Msg

VARIABLE
    lag   \* TS merges still to be made: a set of [at, from, ts]

\* The first half: the purge and the D merge, TS untouched; the stamp waits.
RecvPurgeFirst(r, m) ==
    /\ PurgeStep(r, m, G!Purged)
    /\ UNCHANGED <<TS, H>>
    /\ lag' = lag \cup {[at |-> r, from |-> m.from, ts |-> m.ts]}
    /\ lastAction' = [RecvPeerSyncAction(r, m) EXCEPT !.name = "RecvPeerSyncPurge"]

\* The second half, at any later time: the stamp merged.
LateTs(x) ==
    /\ MergeTs(x.at, x.from, x.ts)
    /\ lag' = lag \ {x}
    /\ lastAction' = [name |-> "LateTs", server |-> x.at, peer |-> x.from, ts |-> x.ts]
    /\ UNCHANGED <<baseVars, gatherVars, now, H, msgVars>>

\* The step was RecvPurgeFirst, which sets lag itself.  IdleCrashM leaves
\* lastAction alone (an atomic-level variable), so the name alone would take
\* an idle crash right after a RecvPeerSyncPurge for one (a repeated receipt
\* of the same DSync, lastAction unchanged, adds what lag already holds).
NewPurge == lastAction'.name = "RecvPeerSyncPurge" /\ lastAction' # lastAction

LateSpec ==
    /\ MsgInit /\ lag = {}
    /\ [][\/ MsgNextWith(LAMBDA r, m : RecvPurgeFirst(r, m)) /\ (lag' = lag \/ NewPurge)
         \/ \E x \in lag : LateTs(x)]_<<allVars, lag>>
=============================================================================

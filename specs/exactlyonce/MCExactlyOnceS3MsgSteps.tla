---------------------- MODULE MCExactlyOnceS3MsgSteps ----------------------
(* Where the message-level spec stops refining the atomic one.  The         *)
(* refinement mapping of MCExactlyOnceS3Msg, with lastAction mapped to the  *)
(* last step that was not a sync message step (absLast, a history          *)
(* variable: StartSync, HandleSync, ReceiveSyncReply and a lost sync must   *)
(* map to stutters, which leave lastAction as it was).  TLC refutes         *)
(* StepsRefineAtomicS3 on MsgSpec at the first HandleSync that changes      *)
(* anything: t merges s's request and records the D s sent, while s has    *)
(* not heard from t; the atomic Sync(s, t) changes both sides in one step, *)
(* and no atomic step changes one side's K, D or known from another's.     *)
(* An expected counterexample: see the README for why no mapping can do    *)
(* better, and MCExactlyOnceS3MsgImmediate for the refinement that holds.   *)
EXTENDS MCExactlyOnceS3Msg

VARIABLE absLast

SyncSteps == {"StartSync", "HandleSync", "ReceiveSyncReply"}
IsSyncStep(la) == la.name \in SyncSteps \/ (la.name = "Lose" /\ la.type \in SyncTypes)

StepsInit == MsgInit /\ absLast = lastAction
StepsNext == MsgNext /\ absLast' = IF IsSyncStep(lastAction') THEN absLast ELSE lastAction'
StepsSpec == StepsInit /\ [][StepsNext]_<<allVars, absLast>>

AtomicSteps == INSTANCE ExactlyOnceS3 WITH
    net <- net, conn <- conn, created <- created, delivered <- delivered, faults <- faults,
    lastAction <- absLast, K <- K, D <- D, known <- known, sess <- sess, R <- R

StepsInitOK == AtomicSteps!Init
StepsRefineAtomicS3 == [][AtomicSteps!Next]_(AtomicSteps!vars)
=============================================================================

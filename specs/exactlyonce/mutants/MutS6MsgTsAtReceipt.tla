--------------------- MODULE MutS6MsgTsAtReceipt ---------------------
(* Mutant: recvPeerSync's TS merge takes the receiver's clock at the      *)
(* receipt, not the DSync's send time (A.7/A.8 "TS[s] = m.timestamp",    *)
(* L476; GatherServer.mergeTs(from, m.ts())).  A's push DSync, sent    *)
(* before A delivered n1, reaches B a tick later and makes A look fresh  *)
(* at B; the client moves to B, which pulls nothing and delivers n1      *)
(* again.  The atomic specs' MutS6TsAtReceipt is this for RecvSync.       *)
(* Expected: NoDuplicateDelivery.                                        *)
EXTENDS MCExactlyOnceS6Msg

RecvTsAtReceipt(r, m) ==
    /\ PurgeStep(r, m, G!Purged)
    /\ MergeTs(r, m.from, Clock(r))   \* the change: was m.ts
    /\ lastAction' = RecvPeerSyncAction(r, m)
    /\ UNCHANGED H

MutSpec == MsgInit /\ [][MsgNextWith(RecvTsAtReceipt)]_allVars
=============================================================================

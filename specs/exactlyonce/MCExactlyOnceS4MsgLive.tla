----------------------- MODULE MCExactlyOnceS4MsgLive -----------------------
(***************************************************************************)
(* Issue 19 item 1, bounded knowledge at every server: under fair purge    *)
(* syncs, a note the client processed leaves every server's K (and so its  *)
(* D, DWithinK), the servers the client never visits included.  Space is  *)
(* then bounded by the notes not yet processed, whatever the run's length. *)
(*                                                                         *)
(* Why the paper's rule suffices (no new rule is needed at this level):    *)
(* a note leaves a K only by a purge, and every purge needs every other   *)
(* server to hold the note in D or to have purged it (GatherPurge reads    *)
(* every reply's D, A.6; RecvPurgeSync's KnownToOthers reads every         *)
(* server's report; its K-difference reads a purge).  So once a note is    *)
(* purged anywhere, every server holding it has it in D, and the purger's  *)
(* next DSync, whose K lacks it and whose watermark is past it, drops it   *)
(* there (A.4's K-difference); before any purge, DSyncs both ways put it  *)
(* in every D and then KnownToOthers purges it.  What kept Strategy 4's    *)
(* unvisited server B at K = 65,600 after 65,599 notes was the runtimes:   *)
(* they handled a peer's DSync with GatherServer.recvSync, which merges D  *)
(* and never purges (ExactlyOnceGather's RecvSyncT without PurgeSync), so  *)
(* no purge of A's ever reached B.  CtlS4MsgMergeOnly is that receipt, and *)
(* TLC refutes DeliveredLeaveEveryK with it.                               *)
(*                                                                         *)
(* Fairness: only the purge syncs'.  Each server keeps sending its K, D    *)
(* and watermark to each peer (the runtime's periodic sync) and handles    *)
(* what reaches it; the faults (MaxFaults) may still lose any of them.     *)
(* Nothing else need happen: a purge needs no session.                     *)
(***************************************************************************)
EXTENDS MCExactlyOnceS4Msg

\* The runtime's periodic sync (GatherNodeMain, NoteCostLoop): one DSync from
\* s to t on the way at a time, a fresh one once it has been handled or
\* lost.  A narrowing of MsgSpec (each such step is a SendPurgeSync), which
\* keeps pnet small enough for the liveness check.
SendNext(s, t) == (~\E m \in pnet : m.from = s /\ m.to = t) /\ SendPurgeSync(s, t)

LiveNext == MsgNextWith(LAMBDA s : \/ \E t \in Servers : SendNext(s, t)
                                   \/ \E m \in pnet : RecvPurgeSync(s, m))

SyncFairness ==
    \A s \in Servers :
        /\ \A t \in Servers \ {s} : WF_allVars(SendNext(s, t))
        /\ WF_allVars(\E m \in pnet : RecvPurgeSync(s, m))

LiveSpec == MsgInit /\ [][LiveNext]_allVars /\ SyncFairness

\* Every note the client processed is eventually in no server's K.
DeliveredLeaveEveryK == \A i \in NoteUniverse : Processed(i) ~> \A s \in Servers : i \notin K[s]
=============================================================================

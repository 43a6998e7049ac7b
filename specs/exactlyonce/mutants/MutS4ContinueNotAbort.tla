--------------------- MODULE MutS4ContinueNotAbort ---------------------
(* Mutant: `{continue;}` instead of `{abort;}` in A.6's gather.  When the  *)
(* request to t or its reply fails, the session goes on to the next       *)
(* server and, having "heard" from everyone, delivers: A delivered n1, the *)
(* client moved to B, B's request to A is lost, B skips A and delivers n1  *)
(* again.  A.6 aborts ("the server abort[s] as soon as it fails to contact *)
(* one of the other servers", L703); L211's guarantee ("aware of all the   *)
(* notes that have previously been delivered") needs a reply from every   *)
(* server.  A skipped server contributes nothing to the purge intersection *)
(* (its D is unknown), so the purge is not what breaks here.               *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS4

\* Nothing from t is on its way: a failure of the call is a plain one.
TStuck(s, t) ==
    \A m \in snet : ~(m.sid = sess[s].sid /\ m.type \in {"reqD", "replyD"} /\ {m.from, m.to} = {s, t})

\* The one change: a failed call to t marks t done instead of aborting.
GatherContinue(s, t) ==
    /\ sess[s].phase = "gather"
    /\ t \in sess[s].asked \ sess[s].replied
    /\ LET cost == IF TStuck(s, t) THEN 0 ELSE 1 IN
         /\ faults + cost <= MaxFaults
         /\ faults' = faults + cost
    /\ sess' = [sess EXCEPT ![s].replied = @ \cup {t}, ![s].common = {}]
    /\ lastAction' = [name |-> "GatherFail", server |-> s, sid |-> sess[s].sid, peer |-> t,
                      verdict |-> "continue"]
    /\ UNCHANGED <<net, conn, created, delivered, K, D, snet, connId>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t) \/ GatherContinue(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars
\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs) to the
\* counterexample's faults and connection order; a violation found narrowed
\* is a behaviour of the unnarrowed spec.
DisconnectOrGatherFail == faults' > faults => lastAction'.name \in {"Disconnect", "GatherFail"}

ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================

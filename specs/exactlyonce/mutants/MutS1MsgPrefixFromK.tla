-------------------------- MODULE MutS1MsgPrefixFromK --------------------------
(* Mutant of the compaction rule "send" (ExactlyOnceS1Msg): the stale sync *)
(* (issue 20; the bug the S3 merge and the gather purge had).  Instead of  *)
(* the stored prefix, a sync request carries one derived from K: below the *)
(* first note of x in K, or the whole stream when K holds none of x.  K    *)
(* cannot tell "delivered" from "not yet created": the request is built    *)
(* while K has no note of A, A.1 is then created, and the request, arriving *)
(* late, purges it at B.  The guard this drops is the watermark: a prefix  *)
(* claims only ids its sender had seen (the cores' `seen`; here, the        *)
(* stored pre never passes ctr, PrefixWithinCounter).  Expected: NotLost.   *)
EXTENDS MCExactlyOnceS1Msg

FromK(s) == [x \in Origins |->
                IF \E i \in K[s] : i.server = x
                THEN CHOOSE n \in 0..MaxNotes : Id(x, n + 1) \in K[s] /\ \A j \in 1..n : Id(x, j) \notin K[s]
                ELSE MaxNotes]

\* The one change: the request's prefix is FromK(s), not pre[s].
MutStartSync(s, t) ==
    /\ s # t
    /\ ~\E m \in snet : {m.from, m.to} = {s, t}
    /\ snet' = snet \cup {SyncMsg("syncReq", s, t, FromK(s))}
    /\ lastAction' = [name |-> "StartSync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, ctr, K, sess, R, pre>>

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : MutStartSync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ SyncNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

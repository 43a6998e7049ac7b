------------------------ MODULE MutS1MsgPurgePastPrefix ------------------------
(* Mutant of the compaction rule "merge" (ExactlyOnceS1Msg): the purge     *)
(* reads the prefix one past its end (x.1 .. x.(p+1), an inclusive bound    *)
(* where an exclusive one was meant), so K also forgets the first id above *)
(* the prefix, which nobody knows delivered.  Expected: NotLost.           *)
EXTENDS MCExactlyOnceS1Msg

PastExpand(p) == UNION {{Id(x, n) : n \in 1..(p[x] + 1)} : x \in Origins}

\* The one change: K loses PastExpand of the merged prefix, not Expand.
MutMerge(s, theirs) ==
    /\ pre' = [pre EXCEPT ![s] = Merged(s, theirs)]
    /\ K' = [K EXCEPT ![s] = @ \ PastExpand(Merged(s, theirs))]

MutHandleSync(m) ==
    /\ m \in snet
    /\ m.type = "syncReq"
    /\ MutMerge(m.to, m.pre)
    /\ snet' = (snet \ {m}) \cup {SyncMsg("syncRep", m.to, m.from, Merged(m.to, m.pre))}
    /\ lastAction' = [name |-> "HandleSync", server |-> m.to, peer |-> m.from]
    /\ UNCHANGED <<baseVars, ctr, sess, R>>

MutReceiveSyncReply(m) ==
    /\ m \in snet
    /\ m.type = "syncRep"
    /\ MutMerge(m.to, m.pre)
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "ReceiveSyncReply", server |-> m.to, peer |-> m.from]
    /\ UNCHANGED <<baseVars, ctr, sess, R>>

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : StartSync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ (\E m \in snet : MutHandleSync(m) \/ MutReceiveSyncReply(m))
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

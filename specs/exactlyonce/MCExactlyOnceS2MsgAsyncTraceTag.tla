---------------- MODULE MCExactlyOnceS2MsgAsyncTraceTag ----------------
(* A trace of ExactlyOnceS2MsgAsync where rule "tag" decides (issue 20    *)
(* item 1, notes Z1): a merge in which a removal the watermark alone      *)
(* would apply (AppliedWith(r, m, TRUE): the sync was built after r       *)
(* numbered the note it holds) leaves the held note in K, because the     *)
(* removal names an incarnation issued before the one held (HeldLater).  *)
(* That is the lost-replica scenario of                                   *)
(* exactlyonce-s2msg-async-settle-forgets: a lost replica left B's        *)
(* numbers behind, so B's sync, built before A reused a number, names the *)
(* old incarnation removed with a seen above A's number of the new one.   *)
(* Replay (S2MsgCores) runs it on S2Server, whose seam                    *)
(* staleRemovalTakesNewerIncarnation must be caught at that merge.       *)
(*                                                                         *)
(* tagDecided is a history variable (it changes nothing the spec reads): *)
(* a trap on a state cannot see which message a merge consumed.          *)
EXTENDS MCExactlyOnceS2MsgAsyncTrace

VARIABLE tagDecided

\* The sync message the merge step lastAction' consumed (one per kind and
\* direction is on the way, OwnSyncOnTheWay).
Merged ==
    CHOOSE m \in snet :
        /\ m.type = IF lastAction'.name = "HandleSync" THEN "syncReq" ELSE "syncRep"
        /\ m.from = lastAction'.peer
        /\ m.to = lastAction'.server

\* A merge kept a note whose removal the watermark alone would apply.
TagDecides ==
    /\ lastAction'.name \in {"HandleSync", "ReceiveSyncReply"}
    /\ LET r == lastAction'.server
       IN \E i \in K'[r] : Wire(i) \in AppliedWith(r, Merged, TRUE)

TagTraceInit == TraceInit /\ tagDecided = FALSE

TagTraceNext ==
    /\ TraceNext
    /\ tagDecided' = (tagDecided \/ TagDecides)

TagTraceSpec == TagTraceInit /\ [][TagTraceNext]_<<asyncVars, reopened, resettled, late, tagDecided>>

NotTagDecides == ~tagDecided
=============================================================================

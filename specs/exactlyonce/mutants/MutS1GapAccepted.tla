--------------------------- MODULE MutS1GapAccepted ---------------------------
(* Control for AcceptedPrefix (L87, "in effect the client remembers all    *)
(* the notes it has ever received"): the two guards that keep a stream     *)
(* whole removed together, the session's {abort;} (MutS1ContinueNotAbort,  *)
(* notes M1-d) and the client's strict test R[x] + 1 = n (MutS1SkipAhead,  *)
(* notes M1-c, benign alone).  x.1 is lost, the session goes on with x.2,  *)
(* and the client accepts it over the gap: R[x] = 2 with x.1 never         *)
(* processed.  Expected: AcceptedPrefix.                                   *)
EXTENDS MutS1ContinueNotAbort

\* MutS1SkipAhead's receipt: any n > R[x] is accepted.
SkipReceiveNote(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ LET i == m.note IN
         /\ net' = Consume(m) \cup {AckMsg(m.from, i)}
         /\ IF i.seq > R[i.server]
            THEN /\ R' = [R EXCEPT ![i.server] = i.seq]
                 /\ delivered' = Append(delivered, i)
            ELSE UNCHANGED <<R, delivered>>
         /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> i,
                           verdict |-> IF i.seq > R[i.server] THEN "accepted" ELSE "discarded"]
    /\ UNCHANGED <<conn, created, faults, ctr, K, sess, skipped>>

GapNext ==
    \/ \E s \in Servers : MutStartSession(s) \/ MutTimeout(s) \/ \E i \in K[s] : MutSendNote(s, i)
    \/ \E m \in net : SkipReceiveNote(m)
    \/ /\ \/ CreateNext
          \/ ConnectNext
          \/ \E s \in Servers : ServerCrash(s) \/ \E t \in Servers : Sync(s, t)
          \/ ReceiveAckNext
          \/ ClientFaultNext
       /\ UNCHANGED skipped

GapSpec == MutInit /\ [][GapNext]_mutVars
=============================================================================

------------------------ MODULE MutS1AcceptRecordSplit ------------------------
(* Mutant: the client processes a note in one step and records it in R (and *)
(* acks) in a later one, so a crash in between loses the record (L77: "the  *)
(* acceptance of a note and the corresponding counter increment should be   *)
(* an atomic operation at the client"; L530).  The resent note is expected  *)
(* again and processed twice.  Expected: NoDuplicateDelivery.               *)
EXTENDS MCExactlyOnceS1

VARIABLE inProgress   \* client, volatile: the note message processed, not yet recorded

mutVars == <<vars, inProgress>>

MutInit == Init /\ inProgress = <<>>

ProcessOnly(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ Expected(m.note)
    /\ net' = Consume(m)
    /\ delivered' = Append(delivered, m.note)
    /\ inProgress' = <<m>>
    /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> m.note, verdict |-> "accepted"]
    /\ UNCHANGED <<conn, created, faults, ctr, K, sess, R>>

Record ==
    /\ inProgress # <<>>
    /\ LET m == inProgress[1] IN
         /\ R' = [R EXCEPT ![m.note.server] = m.note.seq]
         /\ net' = net \cup {AckMsg(m.from, m.note)}
         /\ lastAction' = [name |-> "Record", note |-> m.note]
    /\ inProgress' = <<>>
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, sess>>

MutReceive(m) ==
    /\ inProgress = <<>>
    /\ IF Expected(m.note) THEN ProcessOnly(m) ELSE ReceiveNote(m) /\ UNCHANGED inProgress

MutNext ==
    \/ \E m \in net : m.type = "note" /\ MutReceive(m)
    \/ Record
    \/ ClientCrash /\ inProgress' = <<>>
    \/ /\ \/ CreateNext
          \/ ConnectNext
          \/ \E s \in Servers :
               \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
               \/ \E t \in Servers : Sync(s, t)
          \/ ReceiveAckNext
          \/ Disconnect \/ \E m \in net : LoseMsg(m)
       /\ UNCHANGED inProgress

MutSpec == MutInit /\ [][MutNext]_mutVars
=============================================================================

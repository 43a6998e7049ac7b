------------------------ MODULE MutS3AcceptRecordSplit ------------------------
(* Mutant (notes M3-h): the client processes a note in one step and       *)
(* records it in R (and acks) in a later one, so a crash in between loses  *)
(* the record (L127: "processing the note and updating the data structure  *)
(* that records the processing must be an atomic operation"; L530).  The   *)
(* Deliver times out, the note is sent again, is not in R and is processed *)
(* twice.  Strategy 3's twin of MutS1AcceptRecordSplit (M1-a).             *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS3

VARIABLE inProgress   \* client, volatile: the note message processed, not yet recorded

mutVars == <<vars, inProgress>>

MutInit == Init /\ inProgress = <<>>

\* The first half of the split: processed, not yet in R, no ack.
ProcessOnly(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ Verdict(m.note) = "accepted"
    /\ net' = Consume(m)
    /\ delivered' = Append(delivered, m.note)
    /\ inProgress' = <<m>>
    /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> m.note, verdict |-> "accepted"]
    /\ UNCHANGED <<conn, created, faults, K, D, known, sess, R>>

\* The second half: the id goes into R and the ack is sent.
Record ==
    /\ inProgress # <<>>
    /\ LET m == inProgress[1] IN
         /\ R' = R \cup {m.note}
         /\ net' = net \cup {AckMsg(m.from, m.note)}
         /\ lastAction' = [name |-> "Record", note |-> m.note]
    /\ inProgress' = <<>>
    /\ UNCHANGED <<conn, created, delivered, faults, K, D, known, sess>>

MutReceive(m) ==
    /\ inProgress = <<>>
    /\ IF Verdict(m.note) = "accepted" THEN ProcessOnly(m) ELSE ReceiveNote(m) /\ UNCHANGED inProgress

MutNext ==
    \/ \E m \in net : m.type = "note" /\ MutReceive(m)
    \/ Record
    \/ ClientCrash /\ inProgress' = <<>>
    \/ /\ \/ CreateNote
          \/ ConnectNext
          \/ \E s \in Servers :
               \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
               \/ SyncNext(s) \/ AuthorizeNext(s)
          \/ ReceiveAckNext
          \/ PurgeNext
          \/ Disconnect \/ \E m \in net : LoseMsg(m)
       /\ UNCHANGED inProgress

MutSpec == MutInit /\ [][MutNext]_mutVars
=============================================================================

------------------------- MODULE MutS3DropWhenFullAck -------------------------
(* Mutant: a client whose R is full drops the note but acknowledges it      *)
(* (L169 says refuse, "perhaps by not sending acknowledgments").  The       *)
(* server puts the note in D, it is purged everywhere in time, and the      *)
(* client never processes it.  Expected: EventualDelivery.                  *)
EXTENDS MCExactlyOnceS3

DropButAck(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ net' = Consume(m) \cup {AckMsg(m.from, m.note)}
    /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> m.note, verdict |-> "refused"]
    /\ UNCHANGED <<conn, created, delivered, faults, K, D, known, sess, R>>

AckingReceive(m) ==
    IF m.type = "note" /\ Verdict(m.note) = "refused" THEN DropButAck(m) ELSE ReceiveNote(m)

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ \E m \in net : AckingReceive(m)
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

\* ExactlyOnceS3's fairness, with the acking receipt in place of ReceiveNote.
MutFairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : /\ WF_vars(StartSession(s)) /\ WF_vars(Timeout(s))
                          /\ WF_vars(AuthorizeNext(s))
                          /\ \A i \in NoteUniverse : SF_vars(SendNote(s, i))
    /\ \A s \in Servers, i \in NoteUniverse :
         /\ WF_vars(AckingReceive(NoteMsg(s, i)))
         /\ WF_vars(ReceiveAck(AckMsg(s, i)))
         /\ WF_vars(ReceivePurge(Msg("purge", s, Client, i)))
         /\ WF_vars(ReceivePurgeAck(Msg("purgeAck", Client, s, i)))
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================

-------------------------- MODULE MutS3EvictWhenFull --------------------------
(* Mutant: a client whose R is full evicts an id on its own (say the        *)
(* oldest) to make room, instead of refusing until a purge authorization    *)
(* frees a slot (L169: "the client must refuse to process further notes ...  *)
(* until it receives a purging authorization").  The evicted note, resent   *)
(* by a server that never learnt of its delivery, is processed again.       *)
(* Expected: NoDuplicateDelivery.                                           *)
EXTENDS MCExactlyOnceS3

EvictAndAccept(m, j) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ j \in R
    /\ net' = Consume(m) \cup {AckMsg(m.from, m.note)}
    /\ R' = (R \ {j}) \cup {m.note}
    /\ delivered' = Append(delivered, m.note)
    /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> m.note, verdict |-> "accepted"]
    /\ UNCHANGED <<conn, created, faults, K, D, known, sess>>

EvictingReceive(m) ==
    IF m.type = "note" /\ Verdict(m.note) = "refused"
    THEN \E j \in R : EvictAndAccept(m, j)
    ELSE ReceiveNote(m)

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ \E m \in net : EvictingReceive(m)
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

------------------------- MODULE MutS3AcceptWhenFull -------------------------
(* Mutant for the guard RBounded restates (issue 20 item 5): a client       *)
(* whose R is full accepts the note anyway, R growing past its q slots     *)
(* (L169: "the client must refuse to process further notes ... until it    *)
(* receives a purging authorization"; Table 1 q).  The client then keeps   *)
(* every id it needs, so exactly-once is not at stake: what breaks is the  *)
(* storage bound itself, and only RBounded sees it.  Two models:           *)
(* MutS3AcceptWhenFull.cfg must violate RBounded; MutS3AcceptWhenFullSafe  *)
(* .cfg (the S3 ci safety bounds) must PASS NoDuplicateDelivery and the    *)
(* other safety properties, which shows that RBounded is the only one of   *)
(* them that can catch the removed guard.  The other ways out of a full R *)
(* are refuted by properties that do not restate it: eviction             *)
(* (MutS3EvictWhenFull, NoDuplicateDelivery) and a drop with an ack        *)
(* (MutS3DropWhenFullAck, EventualDelivery).                               *)
EXTENDS MCExactlyOnceS3

\* The one change (ExactlyOnceS3's Verdict refuses when Cardinality(R) = Q).
UnboundedVerdict(i) == IF i \in R THEN "duplicate" ELSE "accepted"

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ \E m \in net : ReceiveNoteWith(m, UnboundedVerdict(m.note))
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

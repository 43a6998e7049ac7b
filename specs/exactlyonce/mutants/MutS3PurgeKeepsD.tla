--------------------------- MODULE MutS3PurgeKeepsD ---------------------------
(* Mutant for the guard DWithinK restates (issue 20 item 5): when the       *)
(* client confirms a purge, the server drops the note from K but keeps it  *)
(* in D (A.4: "K = K - {i}; D = D - {i}"; L146: "purge m by removing m     *)
(* from both K and D at the same time").  In this spec every use of D      *)
(* meets K first (a send takes K \ D, a sync keeps (D[s] \cup D[t]) \cap   *)
(* K, an authorization needs i \in K), so a stale D entry is inert: what   *)
(* breaks is the definition "D: the subset of notes in K that are          *)
(* Delivered" (L141-144) itself, and only DWithinK sees it.  Two models:   *)
(* MutS3PurgeKeepsD.cfg must violate DWithinK; MutS3PurgeKeepsDSafe.cfg    *)
(* (the S3 ci safety bounds) must PASS NoDuplicateDelivery and the other   *)
(* safety properties.                                                      *)
EXTENDS MCExactlyOnceS3

\* The one change (ExactlyOnceS3's ReceivePurgeAck also drops the note from D).
MutReceivePurgeAck(m) ==
    /\ m \in net
    /\ m.type = "purgeAck"
    /\ m.note \in K[m.to]
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ lastAction' = [name |-> "ReceivePurgeAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, D, known, sess, R>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ \E m \in net : ReceivePurge(m) \/ MutReceivePurgeAck(m)
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

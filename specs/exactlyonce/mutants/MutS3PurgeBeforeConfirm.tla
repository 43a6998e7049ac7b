----------------------- MODULE MutS3PurgeBeforeConfirm -----------------------
(* Mutant (notes M3-g): the server drops i from K and D when it sends       *)
(* "Please purge i", not once the client has confirmed it (A.4: "K = K -    *)
(* {i}; D = D - {i}" follows the successful Deliver of the purge).  The     *)
(* purge message is lost; no server holds i any more, so none authorizes   *)
(* it again, and i keeps its slot in R forever.  With one slot the next    *)
(* note is refused for ever (L169: the client refuses "until it receives a *)
(* purging authorization").  Expected: EventualDelivery (ExactlyOnceS3's   *)
(* fairness with the mutated authorization).                               *)
EXTENDS MCExactlyOnceS3

\* The one change (ExactlyOnceS3's Authorize leaves K and D to
\* ReceivePurgeAck).
MutAuthorize(s, i) ==
    /\ InEveryD(s, i)
    /\ NoCopy(i)
    /\ i \in K[s]
    /\ Msg("purge", s, Client, i) \notin net
    /\ net' = net \cup {Msg("purge", s, Client, i)}
    /\ K' = [K EXCEPT ![s] = @ \ {i}]
    /\ D' = [D EXCEPT ![s] = @ \ {i}]
    /\ lastAction' = [name |-> "Authorize", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, known, sess, R>>

MutAuthorizeNext(s) == \E i \in K[s] : MutAuthorize(s, i)

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ MutAuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

\* ExactlyOnceS3's Fairness with the mutated authorization.
MutFairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : /\ WF_vars(StartSession(s)) /\ WF_vars(Timeout(s))
                          /\ WF_vars(MutAuthorizeNext(s))
                          /\ \A i \in NoteUniverse : SF_vars(SendNote(s, i))
    /\ \A s \in Servers, i \in NoteUniverse : MessageFairness(s, i)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================

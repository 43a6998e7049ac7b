--------------------------- MODULE MutS1RemoveOnSend ---------------------------
(* Mutant (notes M1-g): the server removes i from K when it sends it, not  *)
(* when the Deliver succeeds (A.1: "K = K - {i}" follows the successful    *)
(* Deliver; L87: "servers only delete a note after the note has been       *)
(* delivered successfully to the client").  The note is lost on the way,   *)
(* the Deliver times out, and no server has it any more: it is never       *)
(* processed.  Expected: EventualDelivery (liveness, ExactlyOnceS1's       *)
(* fairness with the mutated send).                                        *)
EXTENDS MCExactlyOnceS1

\* The one change (ExactlyOnceS1's SendNote leaves K unchanged).
MutSendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ FirstOfStream(s, i)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ K' = [K EXCEPT ![s] = @ \ {i}]
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, R>>

MutSendNext(s) == \E i \in K[s] : MutSendNote(s, i)

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ MutSendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : Sync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

\* ExactlyOnceS1's Fairness with the mutated send.
MutFairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : WF_vars(StartSession(s)) /\ WF_vars(MutSendNext(s)) /\ WF_vars(Timeout(s))
    /\ WF_vars(ReceiveNoteNext)
    /\ WF_vars(ReceiveAckNext)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================

--------------------------- MODULE MutS0RemoveOnSend ---------------------------
(* Control for Strategy 0's at-least-once liveness (L51): the server       *)
(* removes i from K when it sends it, not when the Deliver succeeds (the   *)
(* twin of Strategy 1's M1-g, MutS1RemoveOnSend).  The note is lost on the *)
(* way, the Deliver times out, and no server has it any more: it is never  *)
(* processed.  At the bounds of exactlyonce-s0-liveness, so that model's   *)
(* EventualDelivery can fail there.  Expected: EventualDelivery.           *)
EXTENDS MCExactlyOnceS0

\* The one change (ExactlyOnceS0's SendNote leaves K unchanged).
MutSendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ K' = [K EXCEPT ![s] = @ \ {i}]
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults>>

MutSendNext(s) == \E i \in K[s] : MutSendNote(s, i)

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ MutSendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : Sync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

\* ExactlyOnceS0's Fairness with the mutated send.
MutFairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : WF_vars(StartSession(s)) /\ WF_vars(MutSendNext(s)) /\ WF_vars(Timeout(s))
    /\ WF_vars(ReceiveNoteNext)
    /\ WF_vars(ReceiveAckNext)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================

------------------------ MODULE MutS1ContinueNotAbort ------------------------
(* Mutant: HandleClient goes on with the next note after a failed Deliver   *)
(* (`{continue;}` in A.1 instead of `{abort;}`).  x.1 is lost, x.2 goes out *)
(* and arrives as a gap: the client discards it but acks it (A.2 acks      *)
(* every note), and the server drops x.2 although it was never processed.  *)
(* Expected: NotLost (L87: "servers only delete a note after the note has  *)
(* been delivered successfully to the client").                            *)
EXTENDS MCExactlyOnceS1

VARIABLE skipped   \* server, volatile: notes this session gave up on

mutVars == <<vars, skipped>>

MutInit == Init /\ skipped = [s \in Servers |-> {}]

Left(s) == K[s] \ skipped[s]

MutStartSession(s) == StartSession(s) /\ skipped' = [skipped EXCEPT ![s] = {}]

MutSendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in Left(s)
    /\ ~\E j \in Left(s) : j.server = i.server /\ j.seq < i.seq
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, R, skipped>>

\* `{continue;}`: the session stays, the note is passed over.
MutTimeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
         /\ skipped' = [skipped EXCEPT ![s] = @ \cup {i}]
    /\ sess' = [sess EXCEPT ![s].pending = <<>>]
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, R>>

MutNext ==
    \/ \E s \in Servers : MutStartSession(s) \/ MutTimeout(s) \/ \E i \in K[s] : MutSendNote(s, i)
    \/ /\ \/ CreateNext
          \/ ConnectNext
          \/ \E s \in Servers : ServerCrash(s) \/ \E t \in Servers : Sync(s, t)
          \/ ReceiveNoteNext
          \/ ReceiveAckNext
          \/ ClientFaultNext
       /\ UNCHANGED skipped

MutSpec == MutInit /\ [][MutNext]_mutVars
=============================================================================

------------------------- MODULE MutS1MsgAdvanceOnSend -------------------------
(* Mutant of the compaction rule "advance" (ExactlyOnceS1Msg): the server  *)
(* moves its delivered prefix when it sends x.n, before Deliver's outcome  *)
(* is known, as if the send were the delivery.  L87: "servers only delete  *)
(* a note after the note has been delivered successfully"; only the ack    *)
(* certifies that R[x] >= n.  The note is lost, the Deliver times out, the *)
(* sync carries the prefix to B, and B drops a note the client never       *)
(* processed.  Expected: NotLost.                                          *)
EXTENDS MCExactlyOnceS1Msg

\* The one change: pre moves here (ExactlyOnceS1Msg's SendNote leaves it).
MutSendNote(s, i) ==
    /\ sess[s].active /\ sess[s].pending = <<>> /\ i \in K[s] /\ FirstOfStream(s, i)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ pre' = [pre EXCEPT ![s][i.server] = Max(@, i.seq)]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, R, snet>>

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ (\E i \in K[s] : MutSendNote(s, i)) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : StartSync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ SyncNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

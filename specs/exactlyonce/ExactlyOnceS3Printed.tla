------------------------- MODULE ExactlyOnceS3Printed -------------------------
(***************************************************************************)
(* Strategy 3 with HandleClient exactly as App. A.4 prints it:             *)
(*                                                                         *)
(*     U = K - D;                                                          *)
(*     foreach i in U { Deliver(c, "Here is note i"); {abort;}             *)
(*                      D = D + {i}; fork(ServerSynch(i,c)); }             *)
(*                                                                         *)
(* U is taken once, when the session starts, while ServerSynch threads     *)
(* forked by earlier deliveries (and syncs started by other servers) run   *)
(* beside the loop and may purge a note of U: "Please purge i" to the      *)
(* client, then K = K - {i}, D = D - {i}.  The loop then reaches that note *)
(* in its stale U and sends it; the client, which has just forgotten it,   *)
(* processes it a second time.  This is the race the reading notes call    *)
(* R3; TLC finds it (NoDuplicateDelivery violated), which is a defect of   *)
(* the published pseudo-code.  ExactlyOnceS3 re-checks i \in K \ D at the  *)
(* send and passes.                                                        *)
(*                                                                         *)
(* Everything else is ExactlyOnceS3's, including the T_e guard on the      *)
(* purge (L131), so the duplicate comes from the snapshot alone: the copy  *)
(* the client takes twice is sent after the purge, not a lingering one.    *)
(***************************************************************************)
EXTENDS ExactlyOnceS3

VARIABLE
    U       \* server, volatile: the session's snapshot "U = K - D" (A.4)

printedVars == <<vars, U>>

PrintedInit == Init /\ U = [s \in Servers |-> {}]

\* "U = K - D", once, at the start of HandleClient.
PrintedStartSession(s) ==
    /\ StartSession(s)
    /\ U' = [U EXCEPT ![s] = K[s] \ D[s]]

\* "foreach i in U": the next note comes from the snapshot, unchecked.
PrintedSendNote(s, i) ==
    /\ i \in U[s]
    /\ SendNoteEffect(s, i)
    /\ U' = [U EXCEPT ![s] = @ \ {i}]

\* The session's end (abort, crash) leaves U as it was; a new session takes
\* a new snapshot.
PrintedNext ==
    \/ \E s \in Servers : PrintedStartSession(s)
    \/ \E s \in Servers : \E i \in U[s] : PrintedSendNote(s, i)
    \/ /\ \/ CreateNote
          \/ ConnectNext
          \/ \E s \in Servers : Timeout(s) \/ ServerCrash(s) \/ SyncNext(s) \/ AuthorizeNext(s)
          \/ ReceiveNoteNext
          \/ ReceiveAckNext
          \/ PurgeNext
          \/ ClientFaultNext
       /\ UNCHANGED U

PrintedSpec == PrintedInit /\ [][PrintedNext]_printedVars
=============================================================================

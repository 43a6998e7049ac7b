------------------------ MODULE MutClientAcceptsAnyReply ------------------------
(* Mutant: a waiting client takes any REPLY on its connection without       *)
(* checking the call id, so a late or duplicated REPLY of its previous call *)
(* is taken as the result of the current one.                               *)
(* Expected: ClientAcceptsOnlyOwnReply.                                     *)
EXTENDS MCRpc

MutNext ==
    \/ \E c \in Conns : ClientNext(c)
    \/ \E m \in net : ClientReceiveWith(m, client[m.conn].waiting)
    \/ ReceiveCallNext
    \/ ReplyAckNext
    \/ CompleteNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ EnvNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

------------------------ MODULE MutS2StaleConfirmation ------------------------
(* Mutant (notes M2-d, Z3): a confirmation obtained before the current     *)
(* incarnation of x.s existed is accepted as proof that it is gone (L109:  *)
(* the reply promises that y "will not attempt to deliver note x.(s + 1)   *)
(* in the future"; a reply built before that note was created promises    *)
(* nothing about it).  Here CreateNote no longer clears the confirmations  *)
(* about the seq it issues.  W = 2.  TLC's trace: A and B sync before any  *)
(* note exists, so B's reply "confirms" seqs 0 and 1 gone; A.0 is created  *)
(* and delivered by A; A.1, whose successor A.0 was used (Condition 1,     *)
(* L107), is created on B's old confirmation of seq 0 although B still     *)
(* holds A.0; the client accepts A.1, moves to B, and B's A.0 is the seq   *)
(* it expects next: processed twice.  Expected: NoDuplicateDelivery.       *)
EXTENDS MCExactlyOnceS2

\* The one change (ExactlyOnceS2's CreateNoteWith also sets
\* conf' = [conf EXCEPT ![x] = [y \in Servers |-> conf[x][y] \ {i.seq}]]).
MutCreateNote(x) ==
    /\ x \in Origins
    /\ Cardinality(created) < MaxNotes
    /\ MayUse(x)
    /\ LET i == Nth(x, ctr[x]) IN
         /\ ctr' = [ctr EXCEPT ![x] = @ + 1]
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, conf, sess, R>>

MutNext ==
    \/ \E x \in Origins : MutCreateNote(x)
    \/ ConnectNext
    \/ \E s \in Servers : ServerNext(s) \/ ServerCrash(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

----------------------- MODULE MutS2MsgCreateKeepsConf -----------------------
(* Mutant of ExactlyOnceS2Msg's rule "issue" (notes M2-d at the message     *)
(* level; MutS2StaleConfirmation is the atomic one): creating x.k keeps the *)
(* confirmations of k (createNote without conf.remove).  B's reply to A's   *)
(* first round confirms seq 0 gone before A.0 exists; A.0 is created and   *)
(* delivered at A, and A.1, whose successor A.0 was used, is created on    *)
(* that old confirmation while B still holds A.0; after A.1 the client     *)
(* moves to B and takes B's A.0 as the next A.0: processed twice.          *)
EXTENDS MCExactlyOnceS2Msg

KeepConf == [i \in NoteUniverse |-> conf]
MutCreateNext == \E x \in Origins : CreateNoteWith(x, MayUse(x), DropRemoved, KeepConf)
MutSpec == Init /\ [][NextWith(MutCreateNext, SyncNext)]_vars
=============================================================================

---------------------- MODULE MutS2MsgKeepRemovedOnReuse ----------------------
(* Mutant of ExactlyOnceS2Msg's rule "reuse": a new incarnation of a wire  *)
(* id leaves the removal of the old one in place (createNote without       *)
(* dropRemoved, S2Server.acceptReplica without it).  The first A.0 was     *)
(* delivered, so every removed set still lists A.0 when A issues it again; *)
(* the next sync carries that removal with a seen that covers the new A.0, *)
(* and the receiver drops it unprocessed.                                  *)
EXTENDS MCExactlyOnceS2Msg

KeepRemoved == [i \in NoteUniverse |-> removed]
MutCreateNext == \E x \in Origins : CreateNoteWith(x, MayUse(x), KeepRemoved, ClearConf)
MutSpec == Init /\ [][NextWith(MutCreateNext, SyncNext)]_vars
=============================================================================

------------------------ MODULE CtlS2MsgCreateUngated ------------------------
(* Control for MCExactlyOnceS2Msg's StepsRefineAtomic: CreateNote without   *)
(* Condition 1.  The third note, A.0 again, is created before B confirmed   *)
(* A.1 gone, a step ExactlyOnceS2's Next does not allow, so the property   *)
(* fails: it does read Condition 1, not only the shape of the steps.       *)
EXTENDS MCExactlyOnceS2Msg

MutCreateNext == \E x \in Origins : CreateNoteWith(x, TRUE, DropRemoved, ClearConf)
MutSpec == Init /\ [][NextWith(MutCreateNext, SyncNext)]_vars
=============================================================================

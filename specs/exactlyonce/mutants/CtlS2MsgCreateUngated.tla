------------------------ MODULE CtlS2MsgCreateUngated ------------------------
(* Control for MCExactlyOnceS2Msg's StepsRefineAtomic: CreateNote without   *)
(* Condition 1.  TLC's trace: A.1, whose successor A.0 was used, is       *)
(* created before B confirmed A.0 gone, a step ExactlyOnceS2's Next does   *)
(* not allow, so the property fails: it reads Condition 1, not only the    *)
(* shape of the steps.                                                     *)
EXTENDS MCExactlyOnceS2Msg

MutCreateNext == \E x \in Origins : CreateNoteWith(x, TRUE, DropRemoved, ClearConf)
MutSpec == Init /\ [][NextWith(MutCreateNext, SyncNext)]_vars
=============================================================================

------------------------ MODULE MCExactlyOnceS1MsgSet ------------------------
(* Bounded models of ExactlyOnceS1MsgSet (the uncompacted level). *)
EXTENDS ExactlyOnceS1MsgSet
=============================================================================

---------------------- MODULE MCExactlyOnceS4Deliver ----------------------
(* Bounded models of Strategy 4 with the plain Deliver (3.3.1). *)
EXTENDS ExactlyOnceS4Deliver

MCNoteIds == <<"n1", "n2", "n3">>
=============================================================================

------------------------- MODULE MCExactlyOnceS4 -------------------------
(* Bounded models of Strategy 4; the cfg files set the bounds.  A cfg cannot *)
(* write a sequence, so the note ids are here.                               *)
EXTENDS ExactlyOnceS4

MCNoteIds == <<"n1", "n2", "n3">>
=============================================================================

------------------------- MODULE MCExactlyOnceS5 -------------------------
(* Bounded models of Strategy 5; the cfg files set the bounds.  A cfg cannot *)
(* write a sequence, so the note ids are here.                               *)
EXTENDS ExactlyOnceS5

MCNoteIds == <<"n1", "n2", "n3">>
=============================================================================

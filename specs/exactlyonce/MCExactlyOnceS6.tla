------------------------- MODULE MCExactlyOnceS6 -------------------------
(* Bounded models of Strategy 6; the cfg files set the bounds.  A cfg cannot *)
(* write a sequence, so the note ids are here.                               *)
EXTENDS ExactlyOnceS6

MCNoteIds == <<"n1", "n2", "n3">>
=============================================================================

------------------------- MODULE MCExactlyOnceS0 -------------------------
(* Bounded models of Strategy 0; the cfg files set the bounds.  A cfg cannot *)
(* write a sequence, so the note ids are here.                               *)
EXTENDS ExactlyOnceS0

MCNoteIds == <<"n1", "n2", "n3">>
=============================================================================

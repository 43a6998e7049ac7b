------------------------- MODULE MCExactlyOnceS3 -------------------------
(* Bounded models of Strategy 3; the cfg files set the bounds.  A cfg cannot *)
(* write a sequence, so the note ids are here.                               *)
EXTENDS ExactlyOnceS3

MCNoteIds == <<"n1", "n2", "n3">>
=============================================================================

---------------------- MODULE MCExactlyOnceS3Printed ----------------------
(* Bounded models of App. A.4 as printed; the cfg files set the bounds. *)
EXTENDS ExactlyOnceS3Printed

MCNoteIds == <<"n1", "n2", "n3">>
=============================================================================

------------------------- MODULE MCExactlyOnceS5 -------------------------
(* Bounded models of Strategy 5; the cfg files set the bounds.  A cfg cannot *)
(* write a sequence, so the note ids are here.                               *)
EXTENDS ExactlyOnceS5

MCNoteIds == <<"n1", "n2", "n3">>

\* Clock skew for the models that set it (cfg: MaxSkew <- MCMaxSkew, ...):
\* A's clock one tick ahead of B's, so B's clock runs behind the time A
\* stamps its syncs with; the allowance covers it (notes M5-d).
MCMaxSkew == 1
MCClockOffset == [s \in Servers |-> IF s = "A" THEN 1 ELSE 0]
MCSkewAllowance == 1
=============================================================================

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

\* The cores' margins for the models and traces that set them (cfg: Te <- MCTe,
\* SkewAllowance <- MCMarginSkew, MaxSkew <- MCMarginMaxSkew, ClockOffset <-
\* MCMarginOffset): T_e = 1 and the cores' skew epsilon = 1, so 2*epsilon =
\* 2 covers A's clock running two ticks ahead of B's (and of the client's).
MCTe == 1
MCMarginSkew == 2
MCMarginMaxSkew == 2
MCMarginOffset == [s \in Servers |-> IF s = "A" THEN 2 ELSE 0]
=============================================================================

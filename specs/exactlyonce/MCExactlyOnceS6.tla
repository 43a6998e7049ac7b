------------------------- MODULE MCExactlyOnceS6 -------------------------
(* Bounded models of Strategy 6; the cfg files set the bounds.  A cfg cannot *)
(* write a sequence, so the note ids are here.                               *)
EXTENDS ExactlyOnceS6

MCNoteIds == <<"n1", "n2", "n3">>

\* The cores' margins for the models and traces that set them (cfg: Te <- MCTe,
\* SkewAllowance <- MCMarginSkew, MaxSkew <- MCMarginMaxSkew, ClockOffset <-
\* MCMarginOffset): T_e = 1 and the cores' skew epsilon = 1, so 2*epsilon =
\* 2 covers A's clock running two ticks ahead of B's (and of the client's).
MCTe == 1
MCMarginSkew == 2
MCMarginMaxSkew == 2
MCMarginOffset == [s \in Servers |-> IF s = "A" THEN 2 ELSE 0]

\* A's clock one tick ahead of B's and of the client's, and the allowance
\* that covers it (exactlyonce-control-s6-skew, MutS6MarginNoSkew).
MCMaxSkew == 1
MCClockOffset == [s \in Servers |-> IF s = "A" THEN 1 ELSE 0]
MCSkewAllowance == 1
=============================================================================

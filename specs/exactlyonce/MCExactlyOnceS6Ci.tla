------------------------- MODULE MCExactlyOnceS6Ci -------------------------
(* The ci size of Strategy 6's safety model (issue 18's budget), a module   *)
(* of its own so that MCExactlyOnceS6's traces keep their inputs.           *)
EXTENDS MCExactlyOnceS6

\* An ACTION_CONSTRAINT: the client's first connection is to A.  With no
\* cut, no clock offset and no skew the model treats A and B alike, so
\* every behaviour whose first connection is to B is one of these with
\* the servers' names swapped, and the invariants (which name no server)
\* hold of both or of neither: the constraint halves the search and loses
\* nothing.  (Checked for S6's safety bounds: with the first connection to
\* B instead, TLC finds the same 257,372 states generated, 71,068 distinct,
\* depth 21.)  A model with an asymmetric constant must not use it.
FirstConnectionToA ==
    lastAction'.name = "Connect" /\ connId = 0 => lastAction'.server = "A"
=============================================================================

--------------------- MODULE MCExactlyOnceS0MsgTimed ---------------------
(* Bounded models of Strategy 0's forget rule with the T_e wait as a clock *)
(* wait (ExactlyOnceS0MsgTimed); the cfg files set the bounds.             *)
EXTENDS ExactlyOnceS0MsgTimed

MCNoteIds == <<"n1", "n2">>

\* Reachability (expected to fail): with the wait in place the rule still
\* fires (the safety model is not safe by forgetting never).
NeverForgets == \A s \in Servers : gone[s] = {}
=============================================================================

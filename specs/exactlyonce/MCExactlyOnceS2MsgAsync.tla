---------------------- MODULE MCExactlyOnceS2MsgAsync ----------------------
(* Bounded models of ExactlyOnceS2MsgAsync (Strategy 2 with the cores'     *)
(* asynchronous replication); the cfg files set the bounds and Settle.     *)
EXTENDS ExactlyOnceS2MsgAsync

\* Reachability for the fixed models: no origin passes Condition 1 for the
\* first time (its successor number is never used).  Must fail: the fix
\* delays confirmations, it must not stop them (a vacuous pass otherwise).
NeverWraps == \A x \in Origins : ctr[x] < W
=============================================================================

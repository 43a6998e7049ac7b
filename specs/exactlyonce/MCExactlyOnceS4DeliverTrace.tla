-------------------- MODULE MCExactlyOnceS4DeliverTrace --------------------
(* Traces of Strategy 4 with the plain Deliver (3.3.1), for a replayer of    *)
(* the counterexample: the window of vulnerability as a trace.              *)
EXTENDS MCExactlyOnceS4Deliver

\* L183: "a Deliver call fails (timeouts) while the matching Receive returns
\* success ... potentially leading to duplicate delivery."
WindowDuplicate == ~NoDuplicateDelivery
NotWindowDuplicate == ~WindowDuplicate
=============================================================================

-------------------- MODULE MCExactlyOnceS4DeliverTrace --------------------
(* Traces of Strategy 4 with the plain Deliver (3.3.1), for a replayer of    *)
(* the counterexample: the window of vulnerability as a trace.              *)
EXTENDS MCExactlyOnceS4Deliver

\* L183: "a Deliver call fails (timeouts) while the matching Receive returns
\* success ... potentially leading to duplicate delivery."
WindowDuplicate == ~NoDuplicateDelivery
NotWindowDuplicate == ~WindowDuplicate
\* Coverage: an ack lost (3.1: the Deliver then times out), a gather aborted.
LostAck == lastAction.name = "Lose" /\ lastAction.type = "ack"
NotLostAck == ~LostAck
GatherFailed == lastAction.name = "GatherFail"
NotGatherFailed == ~GatherFailed
=============================================================================

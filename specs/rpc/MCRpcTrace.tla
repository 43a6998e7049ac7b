------------------------------ MODULE MCRpcTrace ------------------------------
(* Models that make traces for replay on the Java cores (CONVENTIONS.md).   *)
(*                                                                          *)
(* MCRpcTraceSim.cfg: random simulation.  The other cfgs are targeted:      *)
(* their only invariant is a trap NotX == ~X, and TLC's shortest (BFS)      *)
(* counterexample is a trace of scenario X, one the paper argues about.     *)
EXTENDS MCRpc

RcvCall == lastAction.name = "ReceiveCall"
Executed(c, t) == \E i \in DOMAIN executed : executed[i] = [conn |-> c, ts |-> t]

\* Simulation only: losing a message as soon as it is sent makes dull
\* traces; lose only from a fuller network.  SimNext implies Next.
SimNext == Next /\ (lastAction'.name = "Lose" => Cardinality(net) >= 3)
SimSpec == Init /\ [][SimNext]_vars

\* Fig. 3-1, 3: "if state is COMPUTING, send ACK" -- and the client then
\* retransmits a truncated CALL, which gets an ACK too.
DupComputingAck ==
    RcvCall /\ lastAction.outcome = "ack" /\ lastAction.truncated
NotDupComputingAck == ~DupComputingAck

\* Fig. 3-1, 3: "if state is REPLYING, retransmit stored reply".
DupReplyingReply == RcvCall /\ lastAction.outcome = "retransmitReply"
NotDupReplyingReply == ~DupReplyingReply

\* Fig. 3-1 "Crash Recovery" on Fig. 2-2: a call runs, the server crashes
\* and recovers, and the call's retransmission is rejected, not run again.
CrashRecovery ==
    RcvCall /\ lastAction.outcome = "reject" /\ Len(crashClocks) > 0
        /\ Executed(lastAction.conn, lastAction.ts)
NotCrashRecovery == ~CrashRecovery

\* Fig. 3-1 "Garbage collection": the replied entry is collected after rho'
\* and a late duplicate of its call is rejected by upper.
GcReject ==
    RcvCall /\ lastAction.outcome = "reject" /\ Len(crashClocks) = 0
        /\ lastAction.conn \notin DOMAIN ct /\ Executed(lastAction.conn, lastAction.ts)
NotGcReject == ~GcReject

\* 3.1: "If several retransmissions have occurred without a response from
\* the server, the client times out the call."
ClientTimeout == lastAction.name = "Timeout"
NotClientTimeout == ~ClientTimeout

\* 3.1 / Fig. 3-1: the client's REPLY-ACK hint reaches the server, which
\* deletes the stored reply and sets the entry IDLE.
ReplyAckIdle == lastAction.name = "ReceiveReplyAck" /\ lastAction.outcome = "idle"
NotReplyAckIdle == ~ReplyAckIdle
=============================================================================

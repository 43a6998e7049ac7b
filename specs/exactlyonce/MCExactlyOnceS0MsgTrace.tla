-------------------- MODULE MCExactlyOnceS0MsgTrace --------------------
(* Models that make traces of ExactlyOnceS0Msg (replication and the sync  *)
(* as messages, the Forget rule on) for replay on the Java cores          *)
(* (specs/CONVENTIONS.md).  The targeted cfgs have one invariant, a trap  *)
(* NotX == ~X, so TLC's shortest (BFS) counterexample is a trace of X.    *)
EXTENDS MCExactlyOnceS0Msg

\* Issue 19 item 1: a server forgets a removed id (Forget fires).
Forgot == lastAction.name = "Forget"
NotForgot == ~Forgot

\* The reason removed ids are kept: a replica of a delivered note arrives
\* late at a server that knows the note delivered, and stays out of K.
LateReplicaIgnored ==
    /\ lastAction.name = "ReceiveReplica"
    /\ lastAction.note \in removed[lastAction.server]
NotLateReplicaIgnored == ~LateReplicaIgnored
\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note stays in K.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
========================================================================

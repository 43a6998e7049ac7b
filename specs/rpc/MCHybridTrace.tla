----------------------------- MODULE MCHybridTrace -----------------------------
(* Models that make traces of Hybrid.tla for replay on the Java cores        *)
(* (dev.onceproof.rpc.hybrid; CONVENTIONS.md).  MCHybridTraceSim.cfg: random *)
(* simulation.  The other cfgs are targeted: their only invariant is a trap  *)
(* NotX == ~X, and TLC's shortest (BFS) counterexample is a trace of X.      *)
EXTENDS MCHybrid

RcvCall(o) == lastAction.name = "ReceiveCall" /\ lastAction.outcome = o

\* Simulation only: losing a message as soon as it is sent makes dull
\* traces; lose only from a fuller network.  SimNext implies Next.
SimNext == Next /\ (lastAction'.name = "Lose" => Cardinality(net) >= 3)
SimSpec == Init /\ [][SimNext]_vars

\* What Birrell and Nelson get wrong (BN.tla, rpc-bn-late-duplicate), done
\* right: a late copy of an executed call arrives after its entry was
\* collected and is rejected by upper.
LateCopyBelowUpper ==
    RcvCall("belowUpper") /\ Executed(lastAction.conn, lastAction.seq)
NotLateCopyBelowUpper == ~LateCopyBelowUpper

\* After a crash a copy of a call bound to the old incarnation is rejected
\* by rule 1.
StaleAfterCrash == RcvCall("staleIncarnation")
NotStaleAfterCrash == ~StaleAfterCrash

\* A retransmission of a call whose reply is not acknowledged gets the reply
\* again; a copy after the ack is a duplicate by rule 2.
RetransmitThenDuplicate ==
    RcvCall("duplicate") /\ lastAction.conn \in DOMAIN table
        /\ table[lastAction.conn].state = "IDLE"
NotRetransmitThenDuplicate == ~RetransmitThenDuplicate
RetransmitReply == RcvCall("retransmitReply")
NotRetransmitReply == ~RetransmitReply
\* A client gives up on its call: outcome unknown.
ClientTimeout == lastAction.name = "Timeout"
NotClientTimeout == ~ClientTimeout
=============================================================================

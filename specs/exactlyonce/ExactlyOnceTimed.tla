------------------------- MODULE ExactlyOnceTimed -------------------------
(***************************************************************************)
(* What Strategies 5 and 6 add to ExactlyOnceGather: time and sync         *)
(* timestamps (sec. 3.3.2, L219-252; App. A.7, A.8).                       *)
(*                                                                         *)
(* One global clock `now` (NTP assumed, L219; "bounded maximum clock drift *)
(* ... can be added to the appropriate parameters": no skew by default, a  *)
(* constant offset per server where a model sets one, below; Z18),         *)
(* advanced by Tick up to the model bound MaxTime.  Several steps          *)
(* may share a tick: that is what makes the boundary of the freshness      *)
(* tests matter (Z10).  TS[s][t] is "the timestamp of the most recently    *)
(* received synchronization message" from t at s (L229): the sender's     *)
(* send time (A.7 "TS[s] = m.timestamp"; L476 m.timestamp is "the local    *)
(* timestamp when m was sent"), kept as a max (Z11), Never before any.    *)
(* A sync message carries its sender's D and send time (L229); so does a   *)
(* reply to "Request for list D" (A.7, A.8 set TS from it).               *)
(*                                                                         *)
(* Boundary: "corrected" pulls from t when TS[s][t] <= bound; "faithful"   *)
(* is the printed `TS[s] < bound` (A.7 `TS[s] < GetCurrentTime() - Tr`,    *)
(* A.8 `TS[s] < H(s)`), which treats a sync sent in the same tick as the   *)
(* end of the client's connection as fresh although it may predate the    *)
(* connection's last delivery.  TLC refutes the faithful one (Z10).        *)
(***************************************************************************)
EXTENDS ExactlyOnceGather

CONSTANTS
    MaxTime,   \* model bound on the clock
    Boundary   \* "corrected" | "faithful" (Z10)

ASSUME TimeIsNat == MaxTime \in Nat
ASSUME BoundaryIsKnown == Boundary \in {"corrected", "faithful"}

\* Clock skew (L219: "a bounded maximum clock drift, which, if not zero, can
\* be added to the appropriate parameters"; Z10, Z18): server s's clock
\* reads now + ClockOffset[s], a constant offset in 0..MaxSkew, so any two
\* servers' clocks differ by at most MaxSkew.  A server stamps its syncs and
\* D replies with its own clock.  Both are definitions a model overrides in
\* its cfg (`MaxSkew <- MCMaxSkew`, `ClockOffset <- MCClockOffset`); the
\* defaults (no skew) leave every other model as it was.  Offsets are not
\* negative so that no stamp collides with Never.
MaxSkew == 0
ClockOffset == [s \in Servers |-> 0]
ASSUME ClockSkewBounded == MaxSkew \in Nat /\ ClockOffset \in [Servers -> 0..MaxSkew]

\* The margins of the freshness tests, as the cores compute them
\* (GatherConfig.window, historyMargin), both definitions a model overrides
\* (`SkewAllowance <- MCSkewAllowance`, `Te <- MCTe`); 0 by default:
\* - SkewAllowance, the cores' 2*skew (two clocks each within skew of true
\*   time differ by at most 2*skew, L219): it covers MaxSkew (notes M5-d,
\*   M6-e);
\* - Te, T_e, the longest a message lives (L95): footnote 3 measures T_r
\*   from the client's last message, which precedes the server's record of
\*   that delivery by up to one message lifetime (Z10).  In these specs the
\*   gap does not exist: with the atomic aDeliver the record is the
\*   delivery, and with ExactlyOnceOutcome a server reveals no D while an
\*   outcome is unknown.  The margin is carried so that the windows are
\*   the cores' and replay runs with T_e > 0; README, "Time as the cores
\*   keep it", says what can and cannot refute it.
SkewAllowance == 0
Te == 0
ASSUME MarginsAreNat == SkewAllowance \in Nat /\ Te \in Nat
ASSUME SkewAllowanceCoversSkew == SkewAllowance >= MaxSkew

VARIABLES
    now,   \* the clock (global, Z18)
    TS     \* server, durable: TS[s][t] send time of the latest sync from t (Never if none)

timedVars == <<now, TS>>

Never == -1
Stamp == {Never} \cup 0..(MaxTime + MaxSkew)

\* What server s's clock reads now.
Clock(s) == now + ClockOffset[s]

\* Is a sync sent at ts too old for a bound?  (Z10)
NotFresh(ts, bound) == IF Boundary = "faithful" THEN ts < bound ELSE ts <= bound

Max(a, b) == IF a >= b THEN a ELSE b

TimedTypeOK ==
    /\ GatherTypeOK
    /\ NoClientNet
    /\ now \in 0..MaxTime
    /\ TS \in [Servers -> [Servers -> Stamp]]

TimedInit ==
    /\ GatherInit
    /\ now = 0
    /\ TS = [s \in Servers |-> [t \in Servers |-> Never]]

\* Time passes (several steps may share a tick).
TickT ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ lastAction' = [name |-> "Tick", now |-> now + 1]
    /\ UNCHANGED <<baseVars, gatherVars, TS>>

\* s sends its D with its clock to every server it can reach (L229: "The
\* servers periodically send these synchronization messages to each other,
\* which include the originating server's list D").  `name` is the
\* strategy's: PeriodicSync (S5), PushSync (S6).  Model bound: a server has
\* at most one sync on its way to each peer (the next goes out once the last
\* arrived or was lost); without it the set of syncs in flight, each with its
\* own D and time, is far beyond a ci budget.  An older sync only adds an
\* older D and cannot raise TS (max), so safety does not rest on the bound.
SyncMsgs(s) == {SMsg("sync", s, t, 0, D[s], Clock(s)) : t \in {u \in Servers \ {s} : Link(s, u)}}
SyncInFlight(s) == \E m \in snet : m.type = "sync" /\ m.from = s

SendSyncT(s, name) ==
    /\ ~SyncInFlight(s)
    /\ SyncMsgs(s) # {}
    /\ snet' = snet \cup SyncMsgs(s)
    /\ lastAction' = [name |-> name, server |-> s, d |-> D[s], ts |-> Clock(s)]
    /\ UNCHANGED <<baseVars, K, D, sess, connId, now, TS>>

\* t takes a sync from s: "D = D + D[s]" restricted to its K (A.7's
\* "D[s] - (D[s] - K)"), TS[t][s] := max(TS[t][s], ts) (Z11).
RecvSyncT(t, m) ==
    /\ m \in snet
    /\ m.type = "sync"
    /\ m.to = t
    /\ snet' = ConsumeS(m)
    /\ D' = [D EXCEPT ![t] = @ \cup (m.d \cap K[t])]
    /\ TS' = [TS EXCEPT ![t][m.from] = Max(@, m.ts)]
    /\ lastAction' = [name |-> "RecvSync", server |-> t, peer |-> m.from, d |-> m.d, ts |-> m.ts]
    /\ UNCHANGED <<baseVars, K, sess, connId, now>>

\* The client's connection ends (Disconnect, ClientCrash): the server it was
\* connected to drops the session (it sees the connection close).  A model
\* bound of the timed strategies: S4 keeps dead sessions running and shows
\* they cannot deliver (Live); here they would only add D merges and
\* TS updates, which are sound, at a cost in states the ci budget lacks.
EndConnSession ==
    /\ sess' = IF conn = None THEN sess ELSE [sess EXCEPT ![conn] = Idle]
    /\ UNCHANGED <<K, D, snet, connId>>

\* The gather's reply carries t's clock; A.7/A.8 "TS[s] = m.timestamp".
ReplyDT(t, m) == ReplyDG(t, m, Clock(t)) /\ UNCHANGED timedVars
RecvDT(s, m) ==
    /\ RecvDG(s, m)
    /\ TS' = [TS EXCEPT ![s][m.from] = Max(@, m.ts)]
    /\ UNCHANGED now
=============================================================================

-------------------------- MODULE ExactlyOnceS2Timed --------------------------
(***************************************************************************)
(* Strategy 2 with Condition 1's T_e wait as S2Server keeps it: a clock   *)
(* wait (issue 20 item 3, at the scale of ExactlyOnceS3Timed).            *)
(*                                                                         *)
(* ExactlyOnceS2 guards the reuse of a number with ~CopyOfSeq(x, k), what *)
(* the wait achieves (L107: "T_e time after server x has received          *)
(* confirmation from all other servers").  S2Server records, per number   *)
(* of its stream and peer, the clock reading when that peer's sync reply  *)
(* first confirmed the number gone (its conf) and lets the number's       *)
(* predecessor be reused once every peer confirmed, its own K holds no    *)
(* note with the number, and T_e has passed since each confirmation       *)
(* (`at + te > now` refuses).  This module adds what that wait relies on: *)
(* - a clock `now`, advanced by Tick up to the model bound MaxTime;        *)
(* - the send time of every message in net (sentAt), and a lifetime rule   *)
(*   on Tick: a message that has lived T_e ticks is gone (sec. 3.2);       *)
(* - confAt, set and cleared where S2Server sets and clears its conf.      *)
(* Why the wait from the peers' confirmations also covers x's own copies: *)
(* x's K loses x.k at the latest in the sync that brings the last         *)
(* confirmation (both K become their intersection), x sends x.k only      *)
(* while it holds it, and only a new note numbered k brings it back (and  *)
(* clears the confirmations).  GateImpliesNoCopy checks that: whenever    *)
(* the clock gate opens, ExactlyOnceS2's abstract guard holds, so every   *)
(* timed CreateNote is a CreateNote of ExactlyOnceS2 (Tick's expiries     *)
(* being losses).  MutS2TimedShortWait waits T_e - 1 ticks; refuted.      *)
(* GateImpliesNoAck does the same for the other conjunct of MayUse: no ack *)
(* of the number being issued is on the way when the gate lets it go.     *)
(***************************************************************************)
EXTENDS ExactlyOnceS2, Integers

CONSTANTS
    Te,       \* T_e, the longest a message lives, in ticks (the core's ServerConfig.te)
    MaxTime   \* model bound on the clock

ASSUME TimeBoundsAreNat == Te \in Nat \ {0} /\ MaxTime \in Nat

TimedActionNames == (ActionNames \ {}) \cup {"Tick"}

\* The wait after the confirmations: the core's te.  A definition so that a
\* mutant can shorten it (`ConfWait <- ...` in a cfg).
ConfWait == Te

Never == -1

VARIABLES
    now,      \* the clock (global: S2's servers share T_e, no skew)
    sentAt,   \* model: a set of [msg, at], the send time of each message in net
    confAt    \* server, durable: confAt[x][y][k] = when y's confirmation of x.k arrived at x, or Never

timeVars == <<now, sentAt, confAt>>
allVars == <<vars, timeVars>>

TimedTypeOK ==
    /\ TypeOK
    /\ now \in 0..MaxTime
    /\ {p.msg : p \in sentAt} = net
    /\ \A p, q \in sentAt : p.msg = q.msg => p = q
    /\ \A p \in sentAt : p.at \in 0..now /\ now - p.at < Te
    /\ confAt \in [Servers -> [Servers -> [Seqs -> {Never} \cup 0..MaxTime]]]

TimedInit ==
    /\ Init
    /\ now = 0
    /\ sentAt = {}
    /\ confAt = [x \in Servers |-> [y \in Servers |-> [k \in Seqs |-> Never]]]

-----------------------------------------------------------------------------
\* The message a step of ExactlyOnceS2 sends, read from its lastAction.
SentBy(a) ==
    CASE a.name = "SendNote" -> {NoteMsg(a.server, a.note)}
      [] a.name = "ReceiveNote" -> {AckMsg(a.server, a.note)}
      [] OTHER -> {}

SentAt(m) == (CHOOSE p \in sentAt : p.msg = m).at

\* Every message in net' keeps its send time, and the one sent now gets now.
Stamp ==
    sentAt' = {[msg |-> m, at |-> IF m \in SentBy(lastAction') THEN now ELSE SentAt(m)] : m \in net'}

\* S2Server.confirm (putIfAbsent at the reply) and createNote (conf.remove).
StampConf ==
    confAt' = [x \in Servers |-> [y \in Servers |-> [k \in Seqs |->
                 IF k \notin conf'[x][y] THEN Never
                 ELSE IF k \in conf[x][y] THEN confAt[x][y][k] ELSE now]]]

\* S2Server.reusable(k): every other server confirmed x.k gone T_e ago, and
\* x holds no note numbered k.
Waited(x, k) == \A y \in Servers \ {x} : confAt[x][y][k] # Never /\ confAt[x][y][k] + ConfWait <= now
Condition1Timed(x, k) ==
    /\ \A y \in Servers \ {x} : k \in conf[x][y]
    /\ Waited(x, k)
    /\ ~HasSeq(x, x, k)
MayUseTimed(x) == ~SuccessorUsed(x) \/ Condition1Timed(x, (ctr[x] + 1) % W)

\* ExactlyOnceS2's Next with the clock gate in place of ~CopyOfSeq.
UntimedNext ==
    \/ \E x \in Origins : CreateNoteWith(x, MayUseTimed(x))
    \/ ConnectNext
    \/ \E s \in Servers : ServerNext(s) \/ ServerCrash(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

\* Time passes (several steps may share a tick); a message that has now
\* lived T_e ticks is gone.  Not a fault: the lifetime bound is the network's.
Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ sentAt' = {p \in sentAt : now + 1 - p.at < Te}
    /\ net' = {p.msg : p \in sentAt'}
    /\ lastAction' = [name |-> "Tick", now |-> now + 1]
    /\ UNCHANGED <<conn, created, delivered, faults, stratVars, confAt>>

TimedNext ==
    \/ UntimedNext /\ Stamp /\ StampConf /\ UNCHANGED now
    \/ Tick

TimedSpec == TimedInit /\ [][TimedNext]_allVars

-----------------------------------------------------------------------------
\* The refinement argument: wherever the gate lets x use its next number,
\* ExactlyOnceS2's guard holds (no copy of the successor is left).
GateImpliesNoCopy ==
    \A x \in Origins :
        (SuccessorUsed(x) /\ Condition1Timed(x, (ctr[x] + 1) % W)) => ~CopyOfSeq(x, (ctr[x] + 1) % W)

\* And no ack of the number being issued is on the way: ExactlyOnceS2's
\* MayUse has that conjunct (the cores key the pending Deliver by wire id);
\* here the wait gives it.  Every ack of x.s was sent before x.(s+1) was
\* created, and x.s is issued again only T_e after a confirmation of
\* x.(s+1), which answers a sync sent after x.(s+1) was issued.
GateImpliesNoAck ==
    \A x \in Origins : MayUseTimed(x) => ~AckOfSeq(x, ctr[x] % W)
=============================================================================

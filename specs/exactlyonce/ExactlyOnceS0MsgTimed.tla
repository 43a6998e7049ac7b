------------------------ MODULE ExactlyOnceS0MsgTimed ------------------------
(***************************************************************************)
(* ExactlyOnceS0Msg with the forget rule's T_e wait as S0Server keeps it:  *)
(* a clock wait (issue 20 item 3, at the scale of ExactlyOnceS3Timed).     *)
(*                                                                         *)
(* ExactlyOnceS0Msg guards Forget(s, i) with NoReplicaLeft(i), what the    *)
(* wait achieves.  S0Server records, per removed id and peer, the clock    *)
(* reading when that peer's sync first named the id removed (confAt), and *)
(* forgets once every peer confirmed and T_e has passed since the last    *)
(* confirmation (`last + te <= now`).  This module adds what the wait      *)
(* relies on:                                                              *)
(* - a clock `now`, advanced by Tick up to the model bound MaxTime;        *)
(* - the time each note was created (createdAt), which is when all its    *)
(*   replicas were sent, and a lifetime rule on Tick: a replica that has  *)
(*   lived T_e ticks is gone (sec. 3.2, T_e "maximum message lifetime");  *)
(*   so a replica sent at t arrives at a time < t + T_e, the reading under *)
(*   which the core's non-strict test is exact (a note can be created,    *)
(*   delivered and confirmed within one tick);                             *)
(* - confAt, set and cleared where S0Server sets and clears it.            *)
(* Sync, note and ack messages get no lifetime: Forget does not wait for   *)
(* them (ExactlyOnceS0Msg), so letting them live longer only adds          *)
(* behaviours.                                                             *)
(*                                                                         *)
(* The refinement argument: GateImpliesNoReplica says that whenever the   *)
(* clock gate opens the abstract guard NoReplicaLeft holds, so every timed *)
(* Forget is a Forget of ExactlyOnceS0Msg (Tick's expiries being replica   *)
(* losses).  MutS0MsgTimedShortWait waits T_e - 1 ticks; refuted.          *)
(***************************************************************************)
EXTENDS ExactlyOnceS0Msg, Integers

CONSTANTS
    Te,       \* T_e, the longest a message lives, in ticks (the core's ServerConfig.te)
    MaxTime   \* model bound on the clock

ASSUME TimeBoundsAreNat == Te \in Nat \ {0} /\ MaxTime \in Nat

TimedActionNames == (ActionNames \ {}) \cup {"Tick"}

\* The wait Forget takes after the last confirmation: the core's te.  A
\* definition so that a mutant can shorten it (`ForgetWait <- ...` in a cfg).
ForgetWait == Te

Never == -1

VARIABLES
    now,        \* the clock (global: S0's servers share T_e, no skew)
    createdAt,  \* model: note -> when it was created (its replicas' send time), or Never
    confAt      \* server, durable: confAt[s][t][i] = when t first confirmed i to s, or Never

timeVars == <<now, createdAt, confAt>>
allVars == <<vars, timeVars>>

TimedTypeOK ==
    /\ TypeOK
    /\ now \in 0..MaxTime
    /\ createdAt \in [NoteUniverse -> {Never} \cup 0..MaxTime]
    /\ confAt \in [Servers -> [Servers -> [NoteUniverse -> {Never} \cup 0..MaxTime]]]
    /\ \A m \in rnet : createdAt[m.note] # Never /\ now - createdAt[m.note] < Te

TimedInit ==
    /\ Init
    /\ now = 0
    /\ createdAt = [i \in NoteUniverse |-> Never]
    /\ confAt = [s \in Servers |-> [t \in Servers |-> [i \in NoteUniverse |-> Never]]]

\* S0Server.confirmRemovals: the first confirmation of i by t is stamped;
\* an id leaving conf (Forget) loses its stamp.
Stamp ==
    confAt' = [s \in Servers |-> [t \in Servers |-> [i \in NoteUniverse |->
                 IF i \notin conf'[s][t] THEN Never
                 ELSE IF i \in conf[s][t] THEN confAt[s][t][i] ELSE now]]]

\* Any step of ExactlyOnceS0Msg but Forget, at the current time.
TimedStep ==
    /\ StepNext
    /\ now' = now
    /\ createdAt' = IF lastAction'.name = "CreateNote" THEN [createdAt EXCEPT ![lastAction'.note] = now]
                    ELSE createdAt
    /\ Stamp

\* S0Server.mayForget: every peer confirmed, and T_e has passed since the last.
Waited(s, i) == \A t \in Servers \ {s} : confAt[s][t][i] # Never /\ confAt[s][t][i] + ForgetWait <= now

TimedForget(s, i) ==
    /\ ForgetWith(s, i, Confirmed(s, i) /\ Waited(s, i))
    /\ UNCHANGED <<now, createdAt>>
    /\ Stamp

\* Time passes; a replica that has lived T_e ticks is gone.
Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ rnet' = {m \in rnet : now + 1 - createdAt[m.note] < Te}
    /\ lastAction' = [name |-> "Tick", now |-> now + 1]
    /\ UNCHANGED <<baseVars, K, sess, removed, gone, conf, snet, createdAt, confAt>>

TimedNext ==
    \/ TimedStep
    \/ \E s \in Servers : \E i \in removed[s] : TimedForget(s, i)
    \/ Tick

TimedSpec == TimedInit /\ [][TimedNext]_allVars

-----------------------------------------------------------------------------
\* The refinement argument: the clock gate open implies the abstract guard.
GateImpliesNoReplica ==
    \A s \in Servers : \A i \in removed[s] : Confirmed(s, i) /\ Waited(s, i) => NoReplicaLeft(i)

\* The stamps are those of conf (S0Server: removedConf's keys and peers).
StampsOfConf ==
    \A s, t \in Servers : \A i \in NoteUniverse :
        (confAt[s][t][i] # Never) <=> (i \in conf[s][t])
=============================================================================

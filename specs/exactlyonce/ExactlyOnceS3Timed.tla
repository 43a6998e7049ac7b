------------------------- MODULE ExactlyOnceS3Timed -------------------------
(***************************************************************************)
(* Strategy 3 with the T_e purge gate as the cores keep it: a clock wait.  *)
(*                                                                         *)
(* ExactlyOnceS3 guards Authorize with NoCopy(i), what the wait achieves   *)
(* (L131: purge "only when it is sure that m is not lingering in the       *)
(* network itself"; Z4).  S3Server instead records, per note, the clock    *)
(* reading when it first saw the note in every server's D (confirmedAt)    *)
(* and authorizes once T_e has passed since (`since + te > now` refuses).  *)
(* This module adds what that wait relies on:                              *)
(* - a clock `now`, advanced by Tick up to the model bound MaxTime;        *)
(* - the send time of every message in net (sentAt), and a lifetime rule   *)
(*   on Tick: a message that has lived T_e ticks is gone (sec. 3.2, T_e    *)
(*   "maximum message lifetime").  With an integer clock a message sent at *)
(*   t is received at a time < t + T_e; this is the reading under which    *)
(*   the core's non-strict test (authorize at since + te) is exact, since  *)
(*   a copy can be sent in the very tick of the confirmation;              *)
(* - confirmedAt, set and cleared where S3Server sets and clears it.       *)
(* A set cannot hold two copies of one message: a second send of a message *)
(* still in net restamps it with the later time, so the model keeps the    *)
(* older copy alive as long as the younger (more behaviours, not fewer).   *)
(*                                                                         *)
(* The refinement argument: GateImpliesNoCopy says that whenever the clock *)
(* gate opens, the abstract guard NoCopy holds, so every timed Authorize   *)
(* is an Authorize of ExactlyOnceS3 (Tick's expiries being losses outside  *)
(* the fault budget).  One other step differs from ExactlyOnceS3's, as the *)
(* core does: an ack of a note no longer in K leaves D alone               *)
(* (ReceiveAckOfPurged).  MutS3TimedShortWait waits T_e - 1; refuted.      *)
(* A restarted server reconfirms the notes it sees in every D (S3Server's  *)
(* reconfirm, ReconfirmedAt); MutS3TimedReconfirmEarly dates that T_e      *)
(* earlier, so the gate opens at the restart; refuted.                     *)
(***************************************************************************)
EXTENDS ExactlyOnceS3, Integers

CONSTANTS
    Te,       \* T_e, the longest a message lives, in ticks (the core's ServerConfig.te)
    MaxTime   \* model bound on the clock

ASSUME TimeBoundsAreNat == Te \in Nat \ {0} /\ MaxTime \in Nat

\* The wait Authorize takes after the confirmation: the core's te.  A
\* definition so that a mutant can shorten it (`GateWait <- ...` in a cfg).
GateWait == Te

NotConfirmed == -1

VARIABLES
    now,          \* the clock (global: S0-S3's servers share T_e, no skew)
    sentAt,       \* model: a set of [msg, at], the send time of each message in net
    confirmedAt   \* server, volatile: when s first saw i in every D, or NotConfirmed

timeVars == <<now, sentAt, confirmedAt>>
allVars == <<vars, timeVars>>

TimedTypeOK ==
    /\ TypeOK
    /\ now \in 0..MaxTime
    /\ {p.msg : p \in sentAt} = net
    /\ \A p, q \in sentAt : p.msg = q.msg => p = q
    /\ \A p \in sentAt : p.at \in 0..now /\ now - p.at < Te
    /\ confirmedAt \in [Servers -> [NoteUniverse -> {NotConfirmed} \cup 0..MaxTime]]

TimedInit ==
    /\ Init
    /\ now = 0
    /\ sentAt = {}
    /\ confirmedAt = [s \in Servers |-> [i \in NoteUniverse |-> NotConfirmed]]

-----------------------------------------------------------------------------
\* The message a step of ExactlyOnceS3 sends, read from its lastAction.
SentBy(a) ==
    CASE a.name = "SendNote" -> {NoteMsg(a.server, a.note)}
      [] a.name = "ReceiveNote" -> IF a.verdict = "refused" THEN {} ELSE {AckMsg(a.server, a.note)}
      [] a.name = "Authorize" -> {Msg("purge", a.server, Client, a.note)}
      [] a.name = "ReceivePurge" -> {Msg("purgeAck", Client, a.server, a.note)}
      [] OTHER -> {}

\* The send time of message m in net.  (A set of records rather than a
\* function on messages, so that a trace renders it as JSON.)
SentAt(m) == (CHOOSE p \in sentAt : p.msg = m).at

\* Every message in net' keeps its send time, and the one sent now gets now.
Stamp ==
    sentAt' = {[msg |-> m, at |-> IF m \in SentBy(lastAction') THEN now ELSE SentAt(m)] : m \in net'}

\* The servers whose step merges what they know of the other D's, where
\* S3Server calls putIfAbsent: receiveAck, and both ends of an (atomic) sync.
Merging(a) ==
    CASE a.name = "ReceiveAck" -> {a.server}
      [] a.name = "Sync" -> {a.server, a.peer}
      [] OTHER -> {}

\* S3Server.reconfirm: the server that restarts (ServerCrash is the crash
\* and the restart in one step) has lost confirmedAt, and counts each note
\* of its D that it sees in every D as confirmed from the restart.  Its
\* knowledge of the others' D is gone with the crash (known cleared), so
\* only a lone server confirms anything here; with peers the next sync's
\* merge does it.  Counting from the restart is safe: every copy of the
\* note was sent before it.  Without this a lone server that crashed after
\* a delivery never purged that note: the client's R filled and every later
\* note was refused (found by the server SIGKILL run, issue 21).  A
\* definition so that a mutant can date it earlier (MutS3TimedReconfirmEarly).
ReconfirmedAt == now

Restarted(s) == lastAction'.name = "ServerCrash" /\ lastAction'.server = s

\* S3Server: a crash clears confirmedAt and the restart reconfirms (above);
\* a note leaving D leaves it (retainAll(d), receivePurgeAck); a merging
\* server records now for a note it sees in every D for the first time
\* (putIfAbsent); else kept.
Confirm ==
    confirmedAt' =
        [s \in Servers |-> [i \in NoteUniverse |->
            IF i \notin D'[s] THEN NotConfirmed
            ELSE IF Restarted(s)
                 THEN IF (InEveryD(s, i))' THEN ReconfirmedAt ELSE NotConfirmed
            ELSE IF s \in Merging(lastAction') /\ confirmedAt[s][i] = NotConfirmed
                    /\ (InEveryD(s, i))'
                 THEN now
                 ELSE confirmedAt[s][i]]]

\* S3Server.authorize(i): in every D as reported, and the wait is over.
Waited(s, i) == confirmedAt[s][i] # NotConfirmed /\ confirmedAt[s][i] + GateWait <= now

TimedAuthorize(s, i) == InEveryD(s, i) /\ Waited(s, i) /\ AuthorizeWith(s, i)

\* S3Server.receiveAck: an ack of a note no longer in K ends the Deliver and
\* changes nothing else (`!k.containsKey(i)`: "delivered", no record).
\* A server's own Deliver of a note it then learns is in every D can be
\* acked after the note is purged; TLC showed D leaving K (DWithinK) here
\* without this check, where copies expire for free.  ExactlyOnceS3's
\* ReceiveAck now checks K as well (its MutS3AckIntoD is the old reading),
\* so this action and ExactlyOnceS3's ReceiveAck take the same steps.
ReceiveAckOfPurged(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ m.note \notin K[m.to]
    /\ net' = Consume(m)
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, K, D, known, R>>

TimedReceiveAck(m) == (ReceiveAck(m) /\ m.note \in K[m.to]) \/ ReceiveAckOfPurged(m)

\* ExactlyOnceS3's Next with the clock gate in place of NoCopy and the core's
\* receiveAck.
UntimedNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ \E i \in K[s] : TimedAuthorize(s, i)
    \/ ReceiveNoteNext
    \/ \E m \in net : TimedReceiveAck(m)
    \/ PurgeNext
    \/ ClientFaultNext

\* Time passes (several steps may share a tick); a message that has now
\* lived T_e ticks is gone.  Not a fault: the lifetime bound is the
\* network's, it spends nothing of MaxFaults.
Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ sentAt' = {p \in sentAt : now + 1 - p.at < Te}
    /\ net' = {p.msg : p \in sentAt'}
    /\ lastAction' = [name |-> "Tick", now |-> now + 1]
    /\ UNCHANGED <<conn, created, delivered, faults, stratVars, confirmedAt>>

TimedNext ==
    \/ UntimedNext /\ Stamp /\ Confirm /\ UNCHANGED now
    \/ Tick

TimedSpec == TimedInit /\ [][TimedNext]_allVars

-----------------------------------------------------------------------------
(* Properties.                                                              *)

\* The refinement argument: wherever the gate lets s authorize i, the
\* abstract guard of ExactlyOnceS3's Authorize holds.  Every note copy was
\* sent before its sender put i in D, hence before s saw i in every D; T_e
\* later all of them are gone, and none is sent after (no server sends a
\* note of its D).
GateImpliesNoCopy ==
    \A s \in Servers : \A i \in K[s] : (InEveryD(s, i) /\ Waited(s, i)) => NoCopy(i)

\* The confirmation time is never in the future and is kept only while the
\* note is in D (S3Server's confirmedAt keys are within d).
ConfirmedInD ==
    \A s \in Servers : \A i \in NoteUniverse :
        confirmedAt[s][i] # NotConfirmed => confirmedAt[s][i] <= now /\ i \in D[s]
=============================================================================

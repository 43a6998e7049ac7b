------------------ MODULE MCExactlyOnceS2MsgAsyncTrace ------------------
(* Models that make traces of ExactlyOnceS2MsgAsync (replicas as messages, *)
(* the settle rule) for replay on S2Server (specs/CONVENTIONS.md; issue 20 *)
(* items 1 and 3).  The Sim cfg is a random simulation; the targeted cfgs  *)
(* have one invariant, a trap NotX == ~X, so TLC's shortest (BFS)          *)
(* counterexample is a trace of scenario X.                                *)
(*                                                                         *)
(* Replay moves a server's clock to end a number's wait at the spec's      *)
(* SettleNumber (S2MsgCores), and one clock ends waits in the order they   *)
(* started.  The spec has no clock, so it may settle a later number        *)
(* first; TraceNext keeps the order a clock gives (SettleInOrder), and a   *)
(* crash reopens at most one number (the core restarts every reopened wait *)
(* at one time, so two would settle together; OneReopened).  Both only     *)
(* choose among the spec's behaviours.                                     *)
(*                                                                         *)
(* reopened, resettled and late are history variables (they change       *)
(* nothing the spec reads): reopened[s][k] is 1 once a crash of s          *)
(* unsettled k, 2 once a StartSync of s moved k's issue round while it was *)
(* reopened, 0 after a CreateNote or SettleNumber of k; resettled records  *)
(* a SettleNumber of a number at 2; late records a replica stored at a     *)
(* server that knew its note delivered, after the origin took the reply of *)
(* its sync.  A trap on a state cannot see what a step consumed; these     *)
(* can.  The replayer compares only the spec's variables.                 *)
EXTENDS MCExactlyOnceS2MsgAsync

VARIABLES reopened, resettled, late

\* The issue order of x's numbers: the Ord of each one's latest incarnation.
IssueOrd(x, k) == Ord(Latest([server |-> x, seq |-> k]))

\* A SettleNumber settles the unsettled number whose wait started first:
\* every other unsettled number of its server was issued after it (a number
\* a crash reopened was issued before the crash, and waits from the crash).
SettleInOrder ==
    lastAction'.name = "SettleNumber" =>
        LET x == lastAction'.server
            k == lastAction'.seq
        IN \A j \in Seqs \ settled[x] : j # k => IssueOrd(x, j) > IssueOrd(x, k)

OneReopened ==
    lastAction'.name = "ServerCrash" =>
        Cardinality(Seqs \ settled'[lastAction'.server]) <= 1

NextReopened ==
    [s \in Servers |-> [k \in Seqs |->
        CASE lastAction'.name = "ServerCrash" /\ lastAction'.server = s
                 /\ k \in settled[s] /\ k \notin settled'[s] -> 1
          [] lastAction'.name = "StartSync" /\ lastAction'.server = s /\ reopened[s][k] = 1 -> 2
          [] lastAction'.name \in {"CreateNote", "SettleNumber"} /\ lastAction'.server = s
                 /\ (IF lastAction'.name = "CreateNote" THEN lastAction'.note.seq ELSE lastAction'.seq) = k -> 0
          [] OTHER -> reopened[s][k]]]

\* A replica stored where its note was known delivered (the server's removed
\* had it), after the origin's sync round ended (its reply taken).
LateStep ==
    /\ lastAction'.name = "ReceiveReplica"
    /\ lastAction'.verdict = "stored"
    /\ Wire(lastAction'.note) \in removed[lastAction'.server]
    /\ LET x == lastAction'.note.server
       IN round[x] >= 1 /\ ~\E m \in snet : m.to = x \/ m.from = x

TraceInit ==
    /\ AsyncInit
    /\ reopened = [s \in Servers |-> [k \in Seqs |-> 0]]
    /\ resettled = FALSE
    /\ late = FALSE

TraceNext ==
    /\ AsyncNext
    /\ SettleInOrder
    /\ OneReopened
    /\ reopened' = NextReopened
    /\ resettled' = (resettled \/ (lastAction'.name = "SettleNumber"
                                    /\ reopened[lastAction'.server][lastAction'.seq] = 2))
    /\ late' = (late \/ LateStep)

TraceSpec == TraceInit /\ [][TraceNext]_<<asyncVars, reopened, resettled, late>>

\* The late replica with the fix: A delivers A.0 before its replica reaches
\* B, A's sync started before A.0 settled moves its issue round, so B's reply
\* (A.0 removed) does not confirm it, and the late replica enters B's K again.
NotLateReplicaStored == ~late

\* A restart reopens a number (the wait is volatile), a sync of the
\* restarted server moves its issue round while it waits, and it settles
\* again later.
NotResettled == ~resettled

\* The fix lets A reuse a number: a confirmation counted after its number
\* settled, and the new A.0 processed.
ReuseSettled == \E i \in created : i.inc = 1 /\ Processed(i)
NotReuseSettled == ~ReuseSettled

\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note stays in K.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
=============================================================================

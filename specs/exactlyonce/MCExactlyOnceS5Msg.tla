------------------------- MODULE MCExactlyOnceS5Msg -------------------------
(* Bounded models of Strategy 5 with its syncs as messages; the cfg files   *)
(* set the bounds.  A cfg cannot write a sequence, so the note ids are      *)
(* here.                                                                    *)
EXTENDS ExactlyOnceS5Msg

MCNoteIds == <<"n1", "n2", "n3">>

\* As MCExactlyOnceS5Ci's: with no cut, offset or skew A and B are alike,
\* so the behaviours whose first connection is to B are these with the
\* servers renamed; the invariants name no server.
FirstConnectionToA ==
    lastAction'.name = "Connect" /\ connId = 0 => lastAction'.server = "A"
\* The refinement mapping to atomic ExactlyOnceS5 (brief item 2): a DSync on
\* the way is the atomic spec's "sync" message (its D and stamp; K and seen
\* hidden), its receipt the atomic RecvSync, its send PeriodicSync; every other
\* variable is the same; the numbering and the reports are hidden.  TLC
\* refutes RefinesAtomicS5 (exactlyonce-s5msg-refines-atomic-fails), and
\* must: the step that breaks it is a receipt that purges.  In the atomic
\* spec a note leaves a K only by PurgeSync(s, t), at both servers at once
\* and with no TS change; recvPeerSync purges at the receiver alone, in the
\* same step as its TS merge, and the sender's half may be lost or never
\* sent.  No step of ExactlyOnceS5 does that, so no mapping that keeps K and
\* TS as they are makes every step one of its steps; ExactlyOnceS4Msg's
\* refinement holds only for immediate exchanges (both halves at once, no TS),
\* which is the replay's PurgeSync and not the runtime's receipt.  A mapping
\* that hid purges (abstract K = created) breaks on the sessions' `common`
\* and the replies' D, which carry the concrete K and D.
AbsSync(m) == SMsg("sync", m.from, m.to, 0, m.d, m.ts)
AbsAction ==
    CASE lastAction.name = "PeriodicSync" ->
              [name |-> "PeriodicSync", server |-> lastAction.server, d |-> lastAction.d, ts |-> lastAction.ts]
      [] lastAction.name = "RecvPeerSync" ->
              [name |-> "RecvSync", server |-> lastAction.server, peer |-> lastAction.peer,
               d |-> lastAction.d, ts |-> lastAction.ts]
      [] lastAction.name = "Lose" /\ lastAction.type = "dsync" ->
              [name |-> "Lose", type |-> "sync", from |-> lastAction.from, to |-> lastAction.to,
               sid |-> 0, d |-> lastAction.d, ts |-> lastAction.ts]
      [] OTHER -> lastAction
Atomic == INSTANCE ExactlyOnceS5 WITH
    snet <- snet \cup {AbsSync(m) : m \in pnet}, lastAction <- AbsAction
AtomicInit == Atomic!Init
RefinesAtomicS5 == [][Atomic!Next]_(Atomic!vars)

\* The model bound ExactlyOnceTimedMsg's SendPeerSyncT no longer has: at
\* most one round of a server's DSyncs on the way (the next goes out once the
\* last arrived or was lost).  Every model here and every mutant uses it (an
\* ACTION_CONSTRAINT), so their counts are those of the spec that had the
\* bound; the spec and the trace module do not.  Without it, a round sent
\* each time the sender's K, D, seen or clock differ is a DSync of its own,
\* and the sets of DSyncs on the way multiply.  `lastAction' # lastAction`:
\* IdleCrashM leaves lastAction as it was, and a round identical to the last
\* step's is a stutter.
PeerSyncInFlight(s) == \E m \in pnet : m.from = s
OneRoundInFlight ==
    lastAction'.name = "PeriodicSync" /\ lastAction' # lastAction => ~PeerSyncInFlight(lastAction'.server)
\* Trap for the models without that bound: no server ever has two DSyncs to
\* the same peer on the way (TLC must refute it where a model claims to
\* check several rounds at once).
OneRoundOnTheWay == \A m1, m2 \in pnet : m1.from = m2.from /\ m1.to = m2.to => m1 = m2

\* Narrowings for the ci models and the mutants (ACTION_CONSTRAINTs; each
\* model says which it uses, and a mutant's passing control uses the same):
\* the one fault is the client's disconnect (a move), the first connection is
\* to A and the second to B, DSyncs come from one server only, and time
\* passes only while the client is away (it waits for its reconnect).  A
\* behaviour found under them is one of MsgSpec (or MutSpec); a pass under
\* them says nothing of the behaviours they cut, which the deep models
\* search.
OnlyDisconnect == faults' > faults => lastAction'.name = "Disconnect"
ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
SyncsFromA == lastAction'.name = "PeriodicSync" => lastAction'.server = "A"
SyncsFromB == lastAction'.name = "PeriodicSync" => lastAction'.server = "B"
TickWhileAway == lastAction'.name = "Tick" => conn = None
\* For the reboot mutant and its control: the faults are the client's moves
\* and its crashes while away (ClientCrashAway; a crash in a connection is
\* ExactlyOnceS5's, which the other models have).  Two faults: a crash while
\* away that forgets an end needs a move before it.
MovesAndCrashesAway ==
    faults' > faults => \/ lastAction'.name = "Disconnect"
                        \/ lastAction'.name = "ClientCrash" /\ conn = None
\* ... and A's DSyncs go out while the client is at A (the mutant's stale
\* DSync is sent in its session, before the delivery).
SyncsFromAWhileThere == lastAction'.name = "PeriodicSync" => lastAction'.server = "A" /\ conn = "A"
\* For the three-server M5-e mutant and its control, as CtlS5MovesOnly's
\* MovesOnly: the faults are the client's moves, made while no reqD or
\* reply is on its way (no reply outlives its session), no DSyncs (with
\* T_r = 0 every DSync is stale, so one would only merge D early, which the
\* gather does anyway), and the client goes A, B, C.
MovesWhileQuiet == OnlyDisconnect /\ (lastAction'.name = "Disconnect" => snet = {})
QuietMoves == MovesWhileQuiet /\ lastAction'.name # "PeriodicSync"
ConnectABC == connId' > connId => connId' <= 3 /\ lastAction'.server = <<"A", "B", "C">>[connId']
\* For the three-server models with DSyncs: no idle server crash (IdleCrashM,
\* outside the fault budget and the one step that leaves lastAction as it
\* was; the reports it loses are the two-server models' matter).
NoIdleCrash == lastAction' = lastAction => UNCHANGED reportVars

\* The refinement check's spec: MsgSpec with the bound and the narrowings of
\* exactlyonce-s5msg-from-a as part of its next-state relation, not as
\* ACTION_CONSTRAINTs, because TLC checks an action property on every
\* transition it generates, also those a constraint then drops: with the
\* constraints alone the check would fail first on a step outside the model
\* (a second DSync round, which the atomic spec's model bound SyncInFlight
\* forbids).  ClientCrashAway, a client crash while not connected, is a step
\* of ExactlyOnceS5 too now (the atomic spec caught up), so the mapping takes
\* it to itself; OnlyDisconnect keeps it out of this model's faults anyway.
RefinesSpec ==
    MsgInit /\ [][MsgNext /\ OneRoundInFlight /\ OnlyDisconnect /\ ConnectAThenB /\ SyncsFromA
                 /\ TickWhileAway]_allVars

\* The three-server simulation (issue 20 item 4: "a seeded -simulate run with
\* a stated depth and number of behaviours"): three servers, DSyncs from every
\* server to every other (one round of a server's on the way), the faults
\* the client's moves, A then B then C, time passing only while it is away,
\* no idle server crash; the narrowing in the next-state relation, not as
\* ACTION_CONSTRAINTs, because TLC's -simulate ends a behaviour at the first
\* successor it draws that a constraint drops: with the same bounds as
\* constraints, 200,000 behaviours of depth up to 60 averaged 19 states and
\* never reached M5-e's duplicate (MutS5MsgPreviousOnly); in the relation,
\* every behaviour runs to its depth or to a state with no successor.
ThreeSimNarrowing == OneRoundInFlight /\ OnlyDisconnect /\ ConnectABC /\ TickWhileAway /\ NoIdleCrash
ThreeSimSpec == MsgInit /\ [][MsgNext /\ ThreeSimNarrowing]_allVars
=============================================================================

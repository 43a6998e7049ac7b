------------------------- MODULE MCExactlyOnceS6Msg -------------------------
(* Bounded models of Strategy 6 with its syncs as messages; the cfg files   *)
(* set the bounds.  A cfg cannot write a sequence, so the note ids are      *)
(* here.                                                                    *)
EXTENDS ExactlyOnceS6Msg

MCNoteIds == <<"n1", "n2", "n3">>

\* As MCExactlyOnceS6Ci's: with no cut, offset or skew A and B are alike,
\* so the behaviours whose first connection is to B are these with the
\* servers renamed; the invariants name no server.
FirstConnectionToA ==
    lastAction'.name = "Connect" /\ connId = 0 => lastAction'.server = "A"
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
SyncsFromA == lastAction'.name = "PushSync" => lastAction'.server = "A"
SyncsFromB == lastAction'.name = "PushSync" => lastAction'.server = "B"
TickWhileAway == lastAction'.name = "Tick" => conn = None
=============================================================================

------------------------ MODULE MutS4MsgNoWatermark ------------------------
(* Mutant, the stale-sync bug of the gather family (GatherServer's          *)
(* watermark seam, GatherStaleSyncTest): a note's absence from a DSync's K  *)
(* reads as "purged there" whatever the message's watermark.  A DSync B    *)
(* built before n1 existed reaches A after A delivered n1; A drops n1, B    *)
(* still holds it undelivered, the client moves to B, B gathers A's D      *)
(* without n1 and delivers it again.  Expected: NoDuplicateDelivery.       *)
EXTENDS MCExactlyOnceS4Msg

\* The one change: no "v.ent[i] <= m.seen".
NoWatermark(v, i, m) == i \notin m.k

MutSpec == MsgInit /\ [][MsgNextWith(LAMBDA s : PurgeSyncMsgWith(s, NoWatermark))]_allVars

\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs): the one
\* fault is the client's disconnect, the first connection is to A and the
\* second to B, and there is no third, which is the scenario above; a
\* violation found narrowed is a behaviour of MutSpec.
OnlyDisconnect == faults' > faults => lastAction'.name = "Disconnect"

ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================

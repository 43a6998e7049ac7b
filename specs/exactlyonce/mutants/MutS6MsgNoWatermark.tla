------------------------ MODULE MutS6MsgNoWatermark ------------------------
(* Mutant, the stale-sync bug of the gather family at Strategy 6's          *)
(* message level (GatherServer's watermark seam): in recvPeerSync a note's  *)
(* absence from a DSync's K reads as "purged there" whatever the message's  *)
(* watermark.  B's push DSync, sent before n1 existed, reaches A after     *)
(* A delivered n1; A drops n1; the client disconnects and connects to B,    *)
(* which must pull A (H(A) is newer than any sync from A), gets A's D       *)
(* without n1 and delivers n1 again.                                        *)
(* Expected: NoDuplicateDelivery.                                           *)
EXTENDS MCExactlyOnceS6Msg

\* The one change: no "v.ent[i] <= m.seen".
NoWatermark(v, i, m) == i \notin m.k

MutSpec == MsgInit /\ [][MsgNextWith(LAMBDA r, m : RecvPeerSyncWith6(r, m, NoWatermark))]_allVars

=============================================================================

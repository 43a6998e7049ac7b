------------------------- MODULE MutS2MsgNoWatermark -------------------------
(* Mutant of ExactlyOnceS2Msg's rule "merge", the stale sync (issue 20; the *)
(* bug the jqwik properties found in the S3 merge and the gather purge):    *)
(* every removal a sync message carries is applied, whatever the sender's  *)
(* watermark (StreamServer's seam watermark = false).  B's request, built  *)
(* when B knew the first A.0 delivered, arrives after A issued A.0 again;  *)
(* A drops the new A.0, which the client never processed.                  *)
EXTENDS MCExactlyOnceS2Msg

MutSyncNext == \E m \in snet : HandleSyncWith(m, FALSE) \/ ReceiveSyncReplyWith(m, FALSE, ConfirmTest)
MutSpec == Init /\ [][NextWith(CreateNext, MutSyncNext)]_vars
=============================================================================

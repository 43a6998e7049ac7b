------------------- MODULE MutS2MsgAsyncTaggedNoWatermark -------------------
(* Negative control of ExactlyOnceS2MsgAsync's rule "tag" (Tagged = TRUE): *)
(* the merge without the seen watermark (StreamServer.mergeRemoval's      *)
(* entered > seen test).  A stale removal names an older incarnation than *)
(* the one held, which the tag alone keeps: expected to pass, so under the *)
(* tag the watermark is redundant (it stays for Tagged = FALSE and the     *)
(* atomic specs).                                                          *)
EXTENDS MCExactlyOnceS2MsgAsync

MutSpec == AsyncInit /\ [][AsyncNextWith(TRUE, FALSE)]_asyncVars
=============================================================================

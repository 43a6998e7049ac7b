---------------------- MODULE MutS2MsgAsyncTagIgnored ----------------------
(* Mutant of ExactlyOnceS2MsgAsync's rule "tag" (Tagged = TRUE): removals  *)
(* carry their incarnation, but the merge applies a removal whatever       *)
(* incarnation the receiver holds (the watermark alone decides, as in the  *)
(* cores before the fix).  The replica of A.1 to B is lost, so B's numbers *)
(* fall behind A's; a reply A built before it reused A.0 reaches B after   *)
(* the new A.0's replica, names A.0 removed within the watermark (as B     *)
(* numbers it), and B drops the new A.0 unprocessed: ForgetOnlyProcessed.  *)
EXTENDS MCExactlyOnceS2MsgAsync

MutSpec == AsyncInit /\ [][AsyncNextWith(FALSE, TRUE)]_asyncVars
=============================================================================

------------------------ MODULE MutS3TimedShortWait ------------------------
(* Mutant: S3Server's purge gate waits T_e - 1 ticks after the note was    *)
(* seen in every D instead of T_e (an off-by-one in `since + te > now`).   *)
(* A copy of the note sent in the tick of the confirmation is still in the *)
(* network when the purge is authorized; it reaches the client after the   *)
(* purge and is processed again.  The cfgs set `GateWait <- ShortWait`.    *)
(* Expected: NoDuplicateDelivery (MutS3TimedShortWait.cfg) and, the        *)
(* refinement argument failing, GateImpliesNoCopy                          *)
(* (MutS3TimedShortWaitGuard.cfg).                                         *)
EXTENDS MCExactlyOnceS3Timed

ShortWait == Te - 1
=============================================================================

----------------------- MODULE MutS0MsgTimedShortWait -----------------------
(* Mutant: S0Server's forget gate waits T_e - 1 ticks after the last       *)
(* confirmation instead of T_e (an off-by-one in `last + te <= now`).  A   *)
(* note created, delivered and confirmed within one tick still has a       *)
(* replica on its way when the id is forgotten; it arrives and enters K    *)
(* again.  The cfg sets `ForgetWait <- ShortWait`.  Expected:              *)
(* NoResurrection.                                                         *)
EXTENDS MCExactlyOnceS0MsgTimed

ShortWait == Te - 1
=============================================================================

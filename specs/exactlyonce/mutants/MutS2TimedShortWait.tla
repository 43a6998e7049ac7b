------------------------ MODULE MutS2TimedShortWait ------------------------
(* Mutant: S2Server's Condition 1 waits T_e - 1 ticks after the last     *)
(* confirmation instead of T_e (an off-by-one in `at + te > now`).  A     *)
(* copy of x.0 sent in the tick of its confirmation still lingers when    *)
(* x.1 is numbered under Condition 1; the client accepts x.1, then        *)
(* expects seq 0 again and takes the old copy for it: x.0 is processed    *)
(* twice.  The cfg sets `ConfWait <- ShortWait`.                          *)
(* Expected: NoDuplicateDelivery.                                         *)
EXTENDS MCExactlyOnceS2Timed

ShortWait == Te - 1
=============================================================================

-------------------- MODULE MutS2MsgAsyncRestartSettles --------------------
(* Mutant of ExactlyOnceS2MsgAsync's restart (the fix, Settle = TRUE):    *)
(* a restarted server counts every number settled, as S2Server would      *)
(* without its constructor's loop (its volatile settle wait starts empty). *)
(* A creates A.0, whose replica to B is on the way, and crashes (the one  *)
(* fault); after the restart A.0 counts as settled, so A's next request   *)
(* counts for its confirmation: A delivers A.0, B learns it removed and   *)
(* confirms number 0 gone, and the late replica puts A.0 back in B's K.   *)
EXTENDS MCExactlyOnceS2MsgAsync

MutNext ==
    \/ \E s \in Servers : ServerCrashWith(s, Seqs)
    \/ AsyncNext /\ lastAction'.name # "ServerCrash"

MutSpec == AsyncInit /\ [][MutNext]_asyncVars
=============================================================================

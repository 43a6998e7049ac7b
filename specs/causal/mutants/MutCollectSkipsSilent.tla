------------------------- MODULE MutCollectSkipsSilent -------------------------
(* Mutant: garbage collection counts only the nodes it has heard from: a   *)
(* row still all zero (a node that has sent nothing yet, or one suspected  *)
(* to have crashed) is skipped instead of holding the stable prefix at 0.  *)
(* n1 collects its event as soon as it broadcasts it, while neither other  *)
(* node has it.  Expected: CollectedOnlyIfStable.                          *)
EXTENDS MCCausal

StableHeard(i, d) == \A j \in Node : Row(i, j) = NoVc \/ d.seq <= Row(i, j)[d.origin]

CollectSkippingSilent(i) ==
    /\ Collecting
    /\ up[i]
    /\ \E m \in store[i] : StableHeard(i, IdOf(m))
    /\ store' = [store EXCEPT ![i] = {m \in @ : ~StableHeard(i, IdOf(m))}]
    /\ lastAction' = [name |-> "CollectGarbage", node |-> i]
    /\ UNCHANGED <<vc, buf, missing, up, dlog, known, net, sent>>

MutNext ==
    \/ BroadcastNext \/ ReceiveNext \/ DeliverNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext
    \/ \E i \in Node : CollectSkippingSilent(i)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

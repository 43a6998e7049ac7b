--------------------------- MODULE MutDeliverNoWait ---------------------------
(* Mutant: a buffered message is delivered at once, without waiting for   *)
(* the messages before it (2.1's delivery rule dropped).  A node that gets *)
(* n2's event, which depends on n1's, before n1's delivers it first.       *)
(* Expected: CausalOrder.                                                  *)
EXTENDS MCCausal

DeliverNoWait(i, m) ==
    /\ up[i]
    /\ m \in buf[i]
    /\ buf' = [buf EXCEPT ![i] = @ \ {m}]
    /\ vc' = [vc EXCEPT ![i][m.origin] = m.seq]
    /\ store' = [store EXCEPT ![i] = @ \cup {m}]
    /\ dlog' = [dlog EXCEPT ![i] = Append(@, IdOf(m))]
    /\ lastAction' = [name |-> "Deliver", node |-> i, origin |-> m.origin, seq |-> m.seq]
    /\ UNCHANGED <<missing, up, net, sent, known>>

MutNext ==
    \/ BroadcastNext \/ ReceiveNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext
    \/ \E i \in Node : \E m \in buf[i] : DeliverNoWait(i, m)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

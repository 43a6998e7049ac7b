------------------------ MODULE MutRecoveredRedelivered ------------------------
(* Mutant: a recovered copy takes a fast path (Fig. 1's red outcome, "a    *)
(* delivery latency gain"): a resend whose dependencies are delivered is   *)
(* delivered on arrival, and since the node asked for it, it is checked    *)
(* against the buffer only, not against what was delivered.  When the      *)
(* original got there first (the blue outcome) the recovered copy is       *)
(* delivered a second time.  Expected: NoDuplicateDelivery.                *)
EXTENDS MCCausal

FastPath(i, e) ==
    LET m == MsgOf(e) IN
    /\ up[i]
    /\ e \in net
    /\ e.to = i
    /\ e.type = "resend"
    /\ ~Buf(i, IdOf(m))
    /\ \A d \in Deps(m) : Dlv(i, d)
    /\ vc' = [vc EXCEPT ![i][m.origin] = m.seq]
    /\ store' = [store EXCEPT ![i] = @ \cup {m}]
    /\ dlog' = [dlog EXCEPT ![i] = Append(@, IdOf(m))]
    /\ missing' = [missing EXCEPT ![i] = {r \in @ : IdOf(r) # IdOf(m)}]
    /\ lastAction' = [name |-> "Receive", node |-> i, from |-> e.from, type |-> e.type,
                      origin |-> m.origin, seq |-> m.seq, vc |-> m.vc, outcome |-> "delivered"]
    /\ UNCHANGED <<buf, up, net, sent, known>>

MutReceive(i, e) ==
    IF e.type = "resend" /\ ~Buf(i, IdOf(e)) /\ \A d \in Deps(MsgOf(e)) : Dlv(i, d)
    THEN FastPath(i, e) ELSE Receive(i, e)

MutNext ==
    \/ BroadcastNext \/ DeliverNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext
    \/ \E e \in net : MutReceive(e.to, e)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

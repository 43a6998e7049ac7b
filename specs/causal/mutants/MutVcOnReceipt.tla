---------------------------- MODULE MutVcOnReceipt ----------------------------
(* Mutant: the vector clock is merged wrongly: a node counts a message in  *)
(* its clock when it is received, not when it is delivered.  n1's second   *)
(* event, received before its first, then looks next in line and is        *)
(* delivered first.  Expected: CausalOrder.                                *)
EXTENDS MCCausal

ReceiveCounting(i, e) ==
    /\ up[i]
    /\ e \in net
    /\ e.to = i
    /\ e.type \in {"data", "resend"}
    /\ LET m == MsgOf(e) IN
       IF Has(i, IdOf(m))
       THEN /\ lastAction' = [name |-> "Receive", node |-> i, from |-> e.from, type |-> e.type,
                              origin |-> m.origin, seq |-> m.seq, vc |-> m.vc,
                              outcome |-> "duplicate"]
            /\ UNCHANGED <<vc, buf, missing, known>>
       ELSE /\ buf' = [buf EXCEPT ![i] = @ \cup {m}]
            /\ vc' = [vc EXCEPT ![i][m.origin] = @ + 1]
            /\ missing' = [missing EXCEPT ![i] =
                             {r \in Reveal(i, Deps(m), m.origin) : IdOf(r) # IdOf(m)}]
            /\ known' = Learn(i, m.origin, m.vc)
            /\ lastAction' = [name |-> "Receive", node |-> i, from |-> e.from, type |-> e.type,
                              origin |-> m.origin, seq |-> m.seq, vc |-> m.vc,
                              outcome |-> "buffered"]
    /\ UNCHANGED <<store, up, dlog, net, sent>>

MutNext ==
    \/ BroadcastNext \/ DeliverNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext
    \/ \E e \in net : ReceiveCounting(e.to, e)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

---------------------------- MODULE MutBufferDrops ----------------------------
(* Mutant: the buffer drops a message whose dependencies are missing       *)
(* (it still notes what it misses).  On a network that neither loses nor  *)
(* duplicates, n1's second event arriving before its first is thrown away, *)
(* and with the paper's recovery nothing ever reveals it again (no later   *)
(* message depends on it).  Expected: EventualDelivery, on a model where   *)
(* the correct spec passes it (a duplicating network or the live          *)
(* protocol's heartbeats would bring it back: README.md).                  *)
EXTENDS MCCausal

ReceiveDropping(i, e) ==
    /\ up[i]
    /\ e \in net
    /\ e.to = i
    /\ e.type \in {"data", "resend"}
    /\ LET m == MsgOf(e)
           outcome == IF Has(i, IdOf(m)) THEN "duplicate" ELSE "buffered"
       IN /\ IF outcome = "duplicate"
               THEN UNCHANGED <<buf, missing, known>>
               ELSE /\ buf' = IF Deliverable(i, m) THEN [buf EXCEPT ![i] = @ \cup {m}] ELSE buf
                    /\ missing' = [missing EXCEPT ![i] =
                                     {r \in Reveal(i, Deps(m), m.origin) : IdOf(r) # IdOf(m)}]
                    /\ known' = Learn(i, m.origin, m.vc)
          /\ lastAction' = [name |-> "Receive", node |-> i, from |-> e.from, type |-> e.type,
                            origin |-> m.origin, seq |-> m.seq, vc |-> m.vc, outcome |-> outcome]
    /\ net' = IF Duplicating THEN net ELSE net \ {e}
    /\ UNCHANGED <<vc, store, up, dlog, sent>>

MutNext ==
    \/ BroadcastNext \/ DeliverNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext
    \/ \E e \in net : ReceiveDropping(e.to, e)

MutFairness ==
    /\ \A i \in Node :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ ReceiveDropping(i, e))
         /\ WF_pvars(SendHeartbeat(i))
         /\ SF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_pvars(RtoId(i, d))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, d))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================

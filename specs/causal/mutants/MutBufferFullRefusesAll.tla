------------------------ MODULE MutBufferFullRefusesAll ------------------------
(* Mutant: the buffer bound refuses every new copy once the buffer is full, *)
(* the deliverable one included.  n1's second event arrives first and      *)
(* fills n2's buffer; every copy of the first (the original, and each      *)
(* resend the live retries bring) is refused, so neither is ever           *)
(* delivered.  Expected: EventualDelivery.                                 *)
EXTENDS MCCausal

ReceiveRefusingAll(i, e) ==
    /\ up[i]
    /\ e \in net
    /\ e.to = i
    /\ e.type \in {"data", "resend"}
    /\ LET m == MsgOf(e)
           outcome == IF Has(i, IdOf(m)) THEN "duplicate"
                      ELSE IF Cardinality(buf[i]) >= MaxBuffered THEN "refused"
                      ELSE "buffered"
       IN /\ IF outcome # "buffered"
               THEN UNCHANGED <<buf, missing, known>>
               ELSE /\ buf' = [buf EXCEPT ![i] = @ \cup {m}]
                    /\ missing' = [missing EXCEPT ![i] =
                                     {r \in Reveal(i, Deps(m), m.origin) : IdOf(r) # IdOf(m)}]
                    /\ known' = Learn(i, m.origin, m.vc)
          /\ lastAction' = [name |-> "Receive", node |-> i, from |-> e.from, type |-> e.type,
                            origin |-> m.origin, seq |-> m.seq, vc |-> m.vc, outcome |-> outcome]
    /\ net' = IF Duplicating THEN net ELSE net \ {e}
    /\ UNCHANGED <<vc, store, up, dlog, sent>>

MutNext ==
    \/ BroadcastNext \/ DeliverNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext \/ GcNext
    \/ \E e \in net : ReceiveRefusingAll(e.to, e)

MutFairness ==
    /\ \A i \in Node :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ ReceiveRefusingAll(i, e))
         /\ WF_pvars(SendHeartbeat(i))
         /\ SF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_pvars(RtoId(i, d))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, d))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================

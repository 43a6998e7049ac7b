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

(* Causal's Fairness with ReceiveRefusingAll in place of Receive.          *)
(* Less the conditions of the nodes no other node broadcasts to (here n1,  *)
(* the only origin): such a node never buffers, misses, receives or asks   *)
(* for anything, so each of its receive-side conditions holds vacuously (a *)
(* WF or SF condition whose action is never enabled is true of every       *)
(* behaviour) and dropping them leaves the same fair behaviours: the       *)
(* counterexample is fair under the full fairness.  TLC checks the premise *)
(* in the same run (invariant NonListenersIdle: a change that enables one  *)
(* of them fails there, not on the expected property).  Each SF condition  *)
(* doubles TLC's possible error models, hence the trimming.                *)
Listeners == {i \in Node : \E k \in Node \ {i} : MaxSeq[k] > 0}

MutFairness ==
    /\ \A i \in Node : WF_pvars(SendHeartbeat(i))
    /\ \A i \in Listeners :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ ReceiveRefusingAll(i, e))
         /\ SF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Listeners, d \in AllIds :
         /\ WF_pvars(RtoId(i, d))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, d))

NonListenersIdle ==
    \A i \in Node \ Listeners :
        /\ ~ENABLED <<\E m \in buf[i] : Deliver(i, m)>>_pvars
        /\ ~ENABLED <<\E r \in missing[i] : ExpireWait(i, r) \/ ExpireRto(i, r)>>_pvars
        /\ ~ENABLED <<\E e \in net : e.to = i /\ ReceiveRefusingAll(i, e)>>_pvars
        /\ ~ENABLED <<\E e \in net : ReceiveHeartbeat(i, e)>>_pvars
        /\ ~ENABLED <<\E e \in net : e.type = "req" /\ e.from = i /\ ServeRequest(e.to, e)>>_pvars

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================

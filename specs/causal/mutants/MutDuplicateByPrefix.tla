------------------------- MODULE MutDuplicateByPrefix -------------------------
(* Mutant: the duplicate check looks at the delivered prefix (the clock)   *)
(* and the buffer only, as the ordered modes may.  In the unordered mode a *)
(* node delivers n1's second event before its first, above the prefix, so *)
(* a second copy of it reads as new and is delivered again.                *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCCausal

HasByPrefix(i, d) == d.seq <= vc[i][d.origin] \/ Buf(i, d)

ReceiveByPrefix(i, e) ==
    /\ up[i]
    /\ e \in net
    /\ e.to = i
    /\ e.type \in {"data", "resend"}
    /\ LET m == MsgOf(e)
           outcome == IF HasByPrefix(i, IdOf(m)) THEN "duplicate"
                      ELSE IF Cardinality(buf[i]) >= MaxBuffered /\ ~Deliverable(i, m) THEN "refused"
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
    \/ \E e \in net : ReceiveByPrefix(e.to, e)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================

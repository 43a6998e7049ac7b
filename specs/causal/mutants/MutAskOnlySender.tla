---------------------------- MODULE MutAskOnlySender ----------------------------
(* Mutant: recovery only ever asks the original node (5.3's "another node  *)
(* that knows this message" dropped).  Once the origin has crashed after   *)
(* one other node got its message, a node that missed it asks the dead     *)
(* origin forever.  Expected: Agreement, under the same fairness.          *)
EXTENDS MCCausal

ExpireRtoOrigin(i, r) ==
    /\ up[i]
    /\ r \in missing[i]
    /\ r.phase = "asked"
    /\ LET r2 == [r EXCEPT !.phase = IF Recovery = "faithful" THEN "retried" ELSE "asked",
                           !.asked = r.origin]
       IN /\ missing' = [missing EXCEPT ![i] = (@ \ {r}) \cup {r2}]
          /\ net' = net \cup {ReqEnv(i, r.origin, IdOf(r))}
          /\ <<missing', net'>> # <<missing, net>>
          /\ lastAction' = [name |-> "ExpireRto", node |-> i, origin |-> r.origin, seq |-> r.seq,
                            to |-> r.origin]
    /\ UNCHANGED <<vc, buf, store, up, dlog, sent, known>>

MutNext ==
    \/ BroadcastNext \/ ReceiveNext \/ DeliverNext \/ ServeNext \/ HbNext \/ EnvNext
    \/ \E i \in Node : \E r \in missing[i] : ExpireWait(i, r) \/ ExpireRtoOrigin(i, r)

MutFairness ==
    /\ \A i \in Node :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ Receive(i, e))
         /\ WF_pvars(SendHeartbeat(i))
         /\ SF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_pvars(\E r \in missing[i] : IdOf(r) = d /\ ExpireRtoOrigin(i, r))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, d))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================
